import pytest

from npuready.errors import InputError
from npuready.models.library.classifier import build_classifier, classifier

from corpus_extra import needs_corpus


@needs_corpus
@pytest.mark.parametrize("library,constructor,parameters", [("timm", "mobilenetv3_small_050", 578_474),
                                                            ("torchvision", "squeezenet1_1", 727_626)])
def test_library_module_gets_a_ten_class_head(library, constructor, parameters):
    import torch

    model = classifier(library, constructor)()
    assert sum(p.numel() for p in model.parameters()) == parameters
    with torch.no_grad():
        assert model.eval()(torch.zeros(1, 3, 64, 64)).shape == (1, 10)


def test_unknown_library_is_refused():
    with pytest.raises(InputError, match="library 'ultralytics': trainable classifiers come from timm, torchvision"):
        build_classifier("ultralytics", "yolov8n.yaml")
