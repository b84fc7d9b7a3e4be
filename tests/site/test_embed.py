import json

from npuready.site.embed import script_json


def test_script_breakers_are_escaped_and_value_round_trips():
    value = {"m": "</script><script>alert(1)</script>", "c": "<!-- x -->", "amp": "a & b", "ls": "\u2028"}
    text = script_json(value)
    assert "</script" not in text.lower() and "<!--" not in text and "<" not in text and "&" not in text
    assert "\u2028" not in text
    assert json.loads(text) == value
