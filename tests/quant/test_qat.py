"""QAT: BN folding keeps the function, fake-quant fine-tuning trains, and the result is a runnable QDQ model."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from npuready.errors import InputError  # noqa: E402
from npuready.models.resnet20 import ResNet20  # noqa: E402
from npuready.models.tinycnn import TinyCNN  # noqa: E402
from npuready.quant.qat import fold_batchnorm, prepare, train_qat  # noqa: E402


def _randomise_bn(model):
    g = torch.Generator().manual_seed(0)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=g) + 0.5)
    return model.eval()


@pytest.mark.parametrize("arch", [TinyCNN, ResNet20])
def test_fold_batchnorm_keeps_outputs(arch):
    model = _randomise_bn(arch())
    folded = fold_batchnorm(model)
    assert not any(isinstance(m, torch.nn.BatchNorm2d) for m in folded.modules())
    x = torch.randn(2, 1, 28, 28, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        assert torch.max(torch.abs(folded(x) - model(x))) < 1e-4


def test_prepare_wraps_every_conv_and_linear():
    _, wrapped = prepare(TinyCNN(width=4))
    assert wrapped == 4
    _, wrapped = prepare(ResNet20())
    assert wrapped == 1 + 9 * 2 + 2 + 1  # stem, 9 blocks × 2 convs, 2 projection shortcuts, fc


def _task(n=256, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, n)
    x = rng.standard_normal((n, 1, 28, 28)).astype(np.float32) * 0.3
    for i, c in enumerate(y):  # class c lights up row block c
        x[i, 0, 2 * c:2 * c + 3, :] += 2.0
    return x, y


def test_train_qat_learns_and_writes_qdq():
    import onnxruntime as ort

    torch.manual_seed(0)
    x, y = _task()
    res = train_qat(TinyCNN(width=4), x, y, [x[i:i + 1] for i in range(16)], (1, 1, 28, 28), steps=40,
                    batch=32, lr=3e-3, threads=1)
    assert len(res.losses) == 10 and res.losses[-1] < res.losses[0]
    assert "BatchNormalization" not in {n.op_type for n in res.float_model.graph.node}
    ops = {n.op_type for n in res.qdq_model.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv", "Gemm"} <= ops
    s = ort.InferenceSession(res.qdq_model.SerializeToString(), providers=["CPUExecutionProvider"])
    held, labels = _task(64, seed=1)
    pred = np.array([s.run(None, {"input": held[i:i + 1]})[0].argmax() for i in range(64)])
    assert np.mean(pred == labels) > 0.5


def test_bad_arguments_are_input_errors():
    x, y = _task(8)
    with pytest.raises(InputError, match="steps"):
        train_qat(TinyCNN(width=4), x, y, [x[:1]], (1, 1, 28, 28), steps=0)
    with pytest.raises(InputError, match="labels"):
        train_qat(TinyCNN(width=4), x, y[:3], [x[:1]], (1, 1, 28, 28), steps=1)
