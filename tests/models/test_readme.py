from npuready.models.readme import render_readme
from npuready.paths import zoo_dir


def test_zoo_readme_is_generated_from_zoo_json(manifest):
    committed = (zoo_dir() / "README.md").read_text()
    assert committed == render_readme(manifest), "zoo/README.md is stale: run python -m npuready.models.readme"


def test_readme_lists_every_model_and_its_normalisation(manifest):
    text = render_readme(manifest)
    for name, entry in manifest["models"].items():
        assert f"| {name} |" in text
        assert entry["description"] in text
