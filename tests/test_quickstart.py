from npuready import quickstart


def test_quickstart_runs_every_stage_on_the_bundled_defaults(capsys):
    assert quickstart.main() == 0
    out = capsys.readouterr().out
    for step in ("1/6 lint", "2/6 lint", "3/6 partition", "4/6 cost", "5/6 quantize", "6/6 verify"):
        assert f"== {step}" in out
    assert "GATE PASS" in out
    assert "(exit code 2" not in out
    # the ViT's LayerNorm is an R006 ERROR on edge-10, so linting the zoo there must report a block
    assert "R006" in out and "(exit code 1: the check failed" in out
