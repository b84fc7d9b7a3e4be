import copy

import pytest

torch = pytest.importorskip("torch")
from torch import nn

from npuready.surgery import criteria
from npuready.surgery.cycles import LayerCycleEstimator
from npuready.surgery.deps import analyse
from npuready.surgery.prune import apply_plan, count_macs


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(1, 40, 3, padding=1)
        self.b = nn.Conv2d(40, 24, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(24, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(torch.relu(self.b(torch.relu(self.a(x))))), 1))


@pytest.mark.parametrize("length,ratio,align,expected", [
    (64, 0.5, 32, 32), (64, 0.25, 32, 32), (48, 0.5, 32, 32), (32, 0.5, 32, 32), (16, 0.5, 32, 16),
    (128, 0.3, 32, 64), (40, 0.1, 8, 32),
])
def test_aligned_count_rounds_to_the_array_width(length, ratio, align, expected):
    assert criteria.aligned_count(length, ratio, align) == expected


def test_uniform_keeps_the_most_important_channels():
    torch.manual_seed(0)
    model = Net().eval()
    with torch.no_grad():
        model.a.weight[7] *= 100
    deps = analyse(model, torch.zeros(1, 1, 8, 8))
    plan = criteria.uniform(model, deps, 0.5)
    a_group = next(g for g in deps.prunable_groups() if g.producers == ["a"])
    assert len(plan[a_group.id]) == 20 and 7 in plan[a_group.id]


def test_cost_greedy_reaches_its_budget_and_saves_real_cycles():
    torch.manual_seed(0)
    model = Net().eval()
    deps = analyse(model, torch.zeros(1, 1, 8, 8))
    cycles = LayerCycleEstimator("tiny-1", (1, 1, 8, 8), model)
    base = cycles(model)
    plan, trace = criteria.cost_greedy(model, deps, cycles, budget_fraction=0.8, step=4)
    pruned = apply_plan(copy.deepcopy(model), deps, plan)
    assert trace and cycles(pruned) <= 0.8 * base
    assert [t["cycles"] for t in trace] == sorted((t["cycles"] for t in trace), reverse=True)
    assert count_macs(pruned, torch.zeros(1, 1, 8, 8)) < count_macs(Net(), torch.zeros(1, 1, 8, 8))
