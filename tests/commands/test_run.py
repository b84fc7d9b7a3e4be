"""`npuready run` execution options: bad values are one line and exit 2; the help names the sweep extra."""
import pytest

from npuready.cli import main


@pytest.mark.parametrize("argv,needle", [
    (["run", "probes", "--workers", "-1"], "--workers -1: must be 0 (no Dask) or more"),
    (["run", "probes", "--scheduler", "127.0.0.1:8786"], "give the scheduler address as tcp://HOST:PORT"),
    (["run", "probes", "--serial", "--workers", "2"], "not allowed with argument"),
])
def test_bad_execution_options_exit_2_with_one_line(argv, needle, capsys):
    with pytest.raises(SystemExit) if "--serial" in argv else _nothing() as raised:
        code = main(argv)
    code = raised.value.code if "--serial" in argv else code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and needle in err


def test_help_documents_workers_scheduler_resume_and_the_extra(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for needle in ("--workers N", "--serial", "--scheduler tcp://HOST:PORT", "--resume",
                   "pip install 'npuready[sweep]'", "failed_tasks"):
        assert needle in text


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
