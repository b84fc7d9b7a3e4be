from npuready.cli import main


def test_unknown_arch_is_exit_2_with_one_line(capsys):
    assert main(["train", "--arch", "alexnet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "zoo model 'alexnet': unknown" in err


def test_bad_epochs_and_budget_are_exit_2(capsys):
    assert main(["train", "--arch", "tinycnn", "--epochs", "0"]) == 2
    assert "--epochs 0: must be at least 1" in capsys.readouterr().err
    assert main(["train", "--arch", "tinycnn", "--budget", "-1"]) == 2
    assert "must be positive" in capsys.readouterr().err
