from npuready.site.volatile import MASK, content_key


def test_the_commit_is_masked_wherever_the_site_prints_it():
    a = b'npuready.registerRecord("x",{"provenance":{"git":{"commit":"0123abcd"}},"v":1});'
    b = b'npuready.registerRecord("x",{"provenance":{"git":{"commit":"ffff9999"}},"v":1});'
    assert content_key(a) == content_key(b) == a.replace(b"\"0123abcd\"", MASK)
    assert content_key(b'<span>commit <code class="commit">0123abcd</code></span>') == (
        b'<span>commit <code class="commit"><commit></code></span>')
    assert content_key(b'"<code class=\\"commit\\">0123abcd</code>"') == b'"<code class=\\"commit\\"><commit></code>"'
    md = b"| [x](#x) | NPU analysis | T | measured | `0123456789ab` |\n| y | `0123456789ab` | z |\n"
    assert content_key(md) == b"| [x](#x) | NPU analysis | T | measured | <commit> |\n| y | `0123456789ab` | z |\n"


def test_values_are_content():
    assert content_key(b'{"commit":"a","v":1}') != content_key(b'{"commit":"a","v":2}')
    assert content_key(b'{"total_s":1.5}') != content_key(b'{"total_s":1.6}')
