#!/usr/bin/env bash
# Vendor the Vega / Vega-Lite / Vega-Embed UMD bundles into site/vendor/ (pinned versions), and the
# dagre graph-layout bundle (the model pages' graph view) into the package's site assets: `npuready report`
# inlines it into a standalone page, so it must ship with the package.
#
# The site opens from file:// with zero network requests, so the chart runtime is committed
# next to index.html. Vega-Lite's major version must match the one Altair targets
# (python -c "import altair; print(altair.VEGALITE_VERSION)").
# axe-core (accessibility rules) is used only by the end-to-end tests (tests/e2e/test_a11y.py), never shipped in
# the page: it goes to tests/e2e/vendor/, outside site/.
# Usage: bash tools/vendor_js.sh            (needs npm and access to the npm registry)
set -euo pipefail

VEGA=6.4.0
VEGA_LITE=6.4.1
VEGA_EMBED=7.3.0
DAGRE=3.1.3
AXE=4.14.1

here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/site/vendor"
assets="$here/generator/npuready/site/assets"
tests_vendor="$here/tests/e2e/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent --save-exact \
  "vega@$VEGA" "vega-lite@$VEGA_LITE" "vega-embed@$VEGA_EMBED" "@dagrejs/dagre@$DAGRE" "axe-core@$AXE" >/dev/null

mkdir -p "$dest"
cp node_modules/vega/build/vega.min.js "$dest/vega@$VEGA.min.js"
cp node_modules/vega-lite/build/vega-lite.min.js "$dest/vega-lite@$VEGA_LITE.min.js"
cp node_modules/vega-embed/build/vega-embed.min.js "$dest/vega-embed@$VEGA_EMBED.min.js"
for pkg in vega vega-lite vega-embed; do
  cp "node_modules/$pkg/LICENSE" "$dest/LICENSE.$pkg.txt"
done
cp node_modules/@dagrejs/dagre/dist/dagre.min.js "$assets/dagre@$DAGRE.min.js"
cp node_modules/@dagrejs/dagre/LICENSE "$assets/LICENSE.dagre.txt"
mkdir -p "$tests_vendor"
cp node_modules/axe-core/axe.min.js "$tests_vendor/axe-core@$AXE.min.js"
cp node_modules/axe-core/LICENSE "$tests_vendor/LICENSE.axe-core.txt"
cat > "$tests_vendor/VERSIONS.json" <<JSON
{"axe-core": "$AXE"}
JSON
cat > "$dest/VERSIONS.json" <<JSON
{"vega": "$VEGA", "vega-lite": "$VEGA_LITE", "vega-embed": "$VEGA_EMBED"}
JSON
ls -l "$dest"
