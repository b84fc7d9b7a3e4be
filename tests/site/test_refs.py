from npuready.site.refs import expand, localize, pack, unpack

TABLE = [("b-exp", "/results/rows/10/cycles"), ("a-exp", "/results/x"), ("b-exp", "/results/rows/1/cycles"),
         ("b-exp", "/results/rows/1/a~1b")]


def test_localize_renumbers_the_used_references_in_sorted_order():
    html = '<button class="num" data-n="2">1</button><button class="raw" data-n="0">r</button><b data-n="2">1</b>'
    local, used = localize(html, TABLE)
    assert used == [("b-exp", "/results/rows/1/cycles"), ("b-exp", "/results/rows/10/cycles")]
    assert local == ('<button class="num" data-n="0">1</button><button class="raw" data-n="1">r</button>'
                     '<b data-n="0">1</b>')


def test_pack_stores_what_a_pointer_does_not_share_with_the_one_before():
    refs = sorted(TABLE)
    packed = pack(refs)
    assert packed == {"e": ["a-exp", "b-exp"], "r": [[0, 0, "/results/x"], [1, 9, "rows/1/a~1b"],
                                                     [1, 16, "cycles"], [1, 15, "0/cycles"]]}
    assert unpack(packed) == refs


def test_expand_gives_back_the_readable_pair_and_escapes_it():
    html = '<button class="num" data-n="1">7</button> text data-n=&#34;0&#34;'
    assert expand(html, [("e", '/a"b'), ("f", "/x<y")]) == (
        '<button class="num" data-exp="f" data-path="/x&lt;y">7</button> text data-n=&#34;0&#34;')
