import pytest

torch = pytest.importorskip("torch")
from torch import nn

from npuready.surgery.deps import analyse
from npuready.surgery.prune import apply_plan, count_macs


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 3, padding=1)
        self.bn0 = nn.BatchNorm2d(8)
        self.a = nn.Conv2d(8, 12, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(12)
        self.b = nn.Conv2d(12, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.bn0(self.stem(x)))
        y = self.b(torch.relu(self.bn1(self.a(x))))
        x = torch.relu(x + y)
        return self.fc(torch.flatten(self.pool(x), 1))


class Concat(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = nn.Conv2d(3, 4, 1)
        self.q = nn.Conv2d(3, 6, 1)
        self.bn = nn.BatchNorm2d(10)
        self.dw = nn.Conv2d(10, 10, 3, padding=1, groups=10)
        self.out = nn.Conv2d(10, 5, 1)
        self.fc = nn.Linear(5 * 4 * 4, 3)

    def forward(self, x):
        x = torch.cat([self.p(x), self.q(x)], dim=1)
        x = self.out(torch.relu(self.dw(self.bn(x))))
        return self.fc(torch.flatten(x, 1))


def _groups_by_producers(deps):
    return {tuple(sorted(g.producers)): g for g in deps.groups.values()}


def test_residual_add_ties_the_stem_and_the_block_output():
    deps = analyse(Residual().eval(), torch.zeros(1, 1, 8, 8))
    groups = _groups_by_producers(deps)
    assert set(groups) == {("b", "stem"), ("a",), ("fc",)}
    assert groups[("b", "stem")].prunable and groups[("a",)].prunable
    assert not groups[("fc",)].prunable and groups[("fc",)].reason == "reaches the model output"


def test_concat_and_depthwise_keep_segments_and_flatten_scales_features():
    deps = analyse(Concat().eval(), torch.zeros(1, 3, 4, 4))
    groups = _groups_by_producers(deps)
    assert {k: g.length for k, g in groups.items()} == {("p",): 4, ("q",): 6, ("out",): 5, ("fc",): 3}
    dw = [u for u in deps.uses if u.module == "dw"][0]
    assert dw.role == "dw" and [s.length for s in dw.segments] == [4, 6]
    fc_in = [u for u in deps.uses if u.module == "fc" and u.role == "in"][0]
    assert [(s.length, s.factor) for s in fc_in.segments] == [(5, 16)]


@pytest.mark.parametrize("cls,shape", [(Residual, (2, 1, 8, 8)), (Concat, (2, 3, 4, 4))])
def test_pruned_model_equals_original_with_removed_channels_zeroed(cls, shape):
    torch.manual_seed(0)
    model = cls().eval()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    x = torch.randn(*shape)
    deps = analyse(model, x[:1])
    plan = {g.id: list(range(0, g.length, 2)) for g in deps.prunable_groups()}
    # reference: zero the dropped output channels of every producer (and their BN shift) in a copy
    import copy

    ref = copy.deepcopy(model)
    mods = dict(ref.named_modules())
    for g in deps.prunable_groups():
        drop = [i for i in range(g.length) if i not in plan[g.id]]
        for use in deps.uses:
            if use.role in ("out", "bn", "dw") and any(deps.root_group[s.root] == g.id for s in use.segments):
                offset = 0
                for s in use.segments:
                    if deps.root_group[s.root] == g.id:
                        idx = [offset + i for i in drop]
                        m = mods[use.module]
                        with torch.no_grad():
                            m.weight[idx] = 0
                            if m.bias is not None:
                                m.bias[idx] = 0
                            if use.role == "bn":
                                m.running_mean[idx] = 0
                    offset += s.length
    before = count_macs(model, x)
    pruned = apply_plan(copy.deepcopy(model), deps, plan)
    with torch.no_grad():
        assert torch.allclose(pruned(x), ref(x), atol=1e-5)
    assert count_macs(pruned, x) < before


def test_unprunable_group_is_refused():
    deps = analyse(Residual().eval(), torch.zeros(1, 1, 8, 8))
    fc = _groups_by_producers(deps)[("fc",)]
    with pytest.raises(ValueError, match="not prunable: reaches the model output"):
        apply_plan(Residual(), deps, {fc.id: [0, 1]})
