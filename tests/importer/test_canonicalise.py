"""canonicalise() on real exports: trained third-party models from their pinned wheels and a library build."""
from __future__ import annotations

import numpy as np
import onnx
from importer_models import run

from npuready.graph import load
from npuready.importer import canonicalise
from npuready.thirdparty.catalog import get


def _text_crop() -> np.ndarray:
    """scikit-image's text photo, cropped to one line, resized to 48×192, as PaddleOCR's cls preprocessing
    gives it (BGR, (x/255 − 0.5)/0.5, NCHW)."""
    from PIL import Image
    from skimage import data

    gray = data.text()[:90, :380]
    rgb = np.stack([gray] * 3, axis=-1)
    small = np.asarray(Image.fromarray(rgb).resize((192, 48), Image.BILINEAR), np.float32)[:, :, ::-1]
    return ((small / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None].copy()


def test_ppocr_cls_has_no_batchnorm_left_and_computes_the_same_on_a_real_image():
    m = onnx.load(str(get("ppocr-cls").path()))
    out, imported = canonicalise(m)
    assert sum(n.op_type == "BatchNormalization" for n in out.graph.node) == 0
    assert imported.counts() == {"dynamic-dim": 4, "opset-upgraded": 1, "identity-removed": 1, "batchnorm-folded": 35}
    assert imported.summary() == ("imported: 4 dims made dynamic, opset 11 → 13, 1 Identity removed, "
                                  "35 BatchNormalization folded")
    x = {"x": _text_crop()}
    (before,), (after,) = run(m, x), run(out, x)
    assert before.shape == after.shape == (1, 2)
    assert float(np.abs(before - after).max()) <= 1e-4 * float(np.abs(before).max())
    onnx.checker.check_model(out)


def test_mtcnn_pnet_prelu_slopes_are_initializers():
    m = onnx.load(str(get("mtcnn-pnet").path()))
    out, imported = canonicalise(m)
    inits = {t.name for t in out.graph.initializer}
    prelus = [n for n in out.graph.node if n.op_type == "PRelu"]
    assert len(prelus) == 3 and all(n.input[1] in inits for n in prelus)
    assert not imported  # torch already wrote them as initializers: nothing to rewrite


def test_a_library_resnet18_export_is_unchanged_except_its_identity_no_ops():
    """torch's exporter shares equal initializers through Identity nodes; removing them is the only rewrite."""
    from PIL import Image
    from skimage import data

    from npuready.models.library.export import cached_onnx

    m = onnx.load(str(cached_onnx("resnet18", image_size=128)))
    out, imported = canonicalise(m)
    identities = [(n.name, n.op_type) for n in m.graph.node if n.op_type == "Identity"]
    assert identities and set(imported.counts()) == {"identity-removed"}
    assert [r.nodes[0] for r in imported.rewrites] == [name for name, _ in identities]
    assert [(n.name, n.op_type) for n in out.graph.node] == [(n.name, n.op_type) for n in m.graph.node
                                                              if n.op_type != "Identity"]
    image = np.asarray(Image.fromarray(data.astronaut()).resize((128, 128)), np.float32) / 255.0
    x = {m.graph.input[0].name: image.transpose(2, 0, 1)[None].copy()}
    np.testing.assert_array_equal(run(m, x)[0], run(out, x)[0])


def test_the_loader_records_the_rewrites_in_the_graph_and_its_shape_summary():
    g = load(get("ppocr-cls").path())
    assert g.imported.counts()["batchnorm-folded"] == 35
    from npuready.graph.shape_summary import shape_summary

    assert shape_summary(g)["imported"]["counts"]["batchnorm-folded"] == 35
    assert not any(n.op_type == "BatchNormalization" for n in g.nodes)
