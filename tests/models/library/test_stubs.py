import subprocess
import sys

from corpus_extra import needs_corpus

from npuready.models.library.stubs import OP_REGISTRATION_MODULES

SCRIPT = """
import sys
from npuready.models.library.stubs import prepare_torchvision
prepare_torchvision()
import torchvision
m = torchvision.models.squeezenet1_1(weights=None)
print(type(m).__name__, all(getattr(sys.modules[n], '__npuready_stand_in__', False) for n in {mods!r}))
"""


def test_the_stand_ins_are_the_two_op_registration_modules():
    assert OP_REGISTRATION_MODULES == ("torchvision._meta_registrations", "torchvision._autograd_registrations")


@needs_corpus
def test_torchvision_imports_and_builds_a_model_with_the_stand_ins():
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(mods=OP_REGISTRATION_MODULES)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.split() == ["SqueezeNet", "True"]


@needs_corpus
def test_importing_ultralytics_leaves_pil_and_torch_as_they_were():
    script = ("import torch\nfrom PIL import Image\nopen_, save = Image.open, torch.save\n"
              "from npuready.models.library.stubs import import_ultralytics\nimport_ultralytics()\n"
              "import ultralytics.utils.patches\nprint(Image.open is open_, torch.save is save)")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.split() == ["True", "True"]
