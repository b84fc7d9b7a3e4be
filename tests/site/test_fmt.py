from npuready.site.fmt import format_number, is_number


def test_integers_exact_with_separators():
    assert format_number(1884) == "1,884"
    assert format_number(-3) == "-3"
    assert format_number(0) == "0"


def test_floats_four_significant_digits():
    assert format_number(0.28534) == "0.2853"
    assert format_number(12345.678) == "12,346"
    assert format_number(2.5) == "2.5"
    assert format_number(0.00001234) == "1.234e-05"
    assert format_number(0.0) == "0"


def test_percent_and_fixed_digits():
    assert format_number(0.285, pct=True) == "28.5%"
    assert format_number(0.657, pct=True, digits=2) == "65.70%"
    assert format_number(3.14159, digits=2) == "3.14"


def test_is_number_rejects_bools_and_non_finite():
    assert is_number(1) and is_number(0.5)
    assert not is_number(True) and not is_number(float("nan")) and not is_number("1")
