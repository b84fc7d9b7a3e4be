import pytest

from npuready.errors import InputError
from npuready.models.budget import Budget, one_cycle_factor


def test_one_cycle_shape():
    assert one_cycle_factor(0.0) == pytest.approx(1 / 25)
    assert one_cycle_factor(0.25) == pytest.approx(1.0)
    assert one_cycle_factor(1.0) == pytest.approx(1e-4)
    assert one_cycle_factor(0.625) == pytest.approx(1e-4 + (1 - 1e-4) / 2)
    assert one_cycle_factor(2.0) == one_cycle_factor(1.0)


def test_budget_validation():
    with pytest.raises(InputError, match="must be positive"):
        Budget(0)
    with pytest.raises(InputError, match="budget clock 'gpu'"):
        Budget(5, "gpu")


def test_budget_fraction_grows_from_zero():
    budget = Budget(1000.0, "wall")
    budget.start()
    assert 0.0 <= budget.fraction() < 0.01
