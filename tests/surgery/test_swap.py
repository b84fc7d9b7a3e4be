import dataclasses

import pytest

torch = pytest.importorskip("torch")
from torch import nn

from npuready.surgery.swap import supported, swap_activations
from npuready.targets import load_target


class Mixed(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.nn.functional.silu(self.act(self.fc1(x))))


def _host_target(*host_ops):
    t = load_target("edge-10")
    acts = dict(t.activations)
    for op in host_ops:
        acts[op] = "host"
    return dataclasses.replace(t, activations=acts)


def test_gelu_and_silu_are_swapped_when_the_target_runs_them_on_the_host():
    target = _host_target("Erf", "Sigmoid", "HardSwish")
    model, swaps = swap_activations(Mixed(), target)
    assert [(s.old, s.new) for s in swaps] == [("GELU", "ReLU6"), ("SiLU", "ReLU6")]
    assert not any(isinstance(m, (nn.GELU, nn.SiLU)) for m in model.modules())
    assert model(torch.zeros(1, 4)).shape == (1, 2)


def test_nothing_changes_when_the_target_supports_everything():
    target = load_target("edge-10")
    assert supported(nn.GELU, target)
    model, swaps = swap_activations(Mixed(), target)
    assert swaps == []
