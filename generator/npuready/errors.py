"""The one exception type that means "the input is unusable" (CLI exit code 2)."""


class InputError(Exception):
    """Bad input: a file, option or value the user gave cannot be used.

    The message is one line that names the object at fault, the problem and, where
    possible, the limit or what to do. The CLI prints it and exits with code 2.
    """

    def __init__(self, message: str):
        text = " ".join(str(message).split())
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in text))  # names never drive a terminal
