from corpus_extra import needs_corpus

pytestmark = needs_corpus


def test_conv_and_linear_macs_are_counted_exactly():
    import torch
    from torch import nn

    from npuready.models.library.macs import count_module_macs

    module = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 8 * 8, 10)).eval()
    total, by_op = count_module_macs(module, (1, 3, 8, 8))
    conv, linear = 8 * 8 * 8 * 3 * 9, 8 * 8 * 8 * 10
    assert total == conv + linear
    assert by_op == {"addmm": linear, "convolution": conv}
    del torch


def test_library_model_count_is_linear_in_the_batch():
    from npuready.models.library.macs import count_macs

    one, two = count_macs("squeezenet1_1", image_size=64), count_macs("squeezenet1_1", batch=2, image_size=64)
    assert one.input_shape == (1, 3, 64, 64) and two.input_shape == (2, 3, 64, 64)
    assert one.macs > 0 and two.macs == 2 * one.macs
    assert sum(one.by_op.values()) == one.macs


def test_attention_matmuls_are_counted():
    import torch.nn.functional as F
    from torch import nn

    from npuready.models.library.macs import count_module_macs

    class Attention(nn.Module):
        def forward(self, x):
            return F.scaled_dot_product_attention(x, x, x)

    total, by_op = count_module_macs(Attention().eval(), (1, 3, 197, 64))
    assert total == 2 * 3 * 197 * 197 * 64 and by_op == {"bmm": total}  # QK^T and AV
