import json

import altair

from npuready.paths import site_dir
from npuready.site.vendor import VERSIONS, missing_vendor_files


def test_vendored_bundles_are_committed_and_pinned():
    assert missing_vendor_files(site_dir()) == []
    assert json.loads((site_dir() / "vendor" / "VERSIONS.json").read_text()) == VERSIONS


def test_vega_lite_matches_the_version_altair_targets():
    assert VERSIONS["vega-lite"] == altair.VEGALITE_VERSION
    assert VERSIONS["vega"].split(".")[0] == altair.VEGA_VERSION.split(".")[0]


def test_vendor_script_pins_the_same_versions():
    script = (site_dir().parent / "tools" / "vendor_js.sh").read_text()
    assert f"VEGA={VERSIONS['vega']}\n" in script
    assert f"VEGA_LITE={VERSIONS['vega-lite']}\n" in script
    assert f"VEGA_EMBED={VERSIONS['vega-embed']}\n" in script


def test_graph_layout_bundle_is_the_pinned_dagre_with_its_licence():
    from npuready.site.modelpage import DAGRE, asset

    script = (site_dir().parent / "tools" / "vendor_js.sh").read_text()
    version = DAGRE.removeprefix("dagre@").removesuffix(".min.js")
    assert f"DAGRE={version}\n" in script
    assert asset(DAGRE).startswith(b'"use strict";var dagre=')
    assert b"Chris Pettitt" in asset("LICENSE.dagre.txt")
