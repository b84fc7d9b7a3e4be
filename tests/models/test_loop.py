import torch
from torch import nn

from npuready.models.loop import train_loop


def test_epoch_start_runs_before_each_epoch_with_its_index():
    model = nn.Linear(2, 1)
    calls, seen = [], []
    x = torch.ones(8, 2)

    def start(epoch):
        calls.append(epoch)
        x.fill_(float(epoch))  # fresh data per epoch

    def batch_loss(idx):
        seen.append(float(x[idx].mean()))
        return model(x[idx]).pow(2).mean()

    run = train_loop("t", model, torch.optim.SGD(model.parameters(), lr=0.01), 0.01, 4, 8, batch_loss,
                     torch.Generator().manual_seed(0), 3, None, pct_start=0.3, show_progress=False,
                     log=lambda line: None, epoch_start=start)
    assert calls == [0, 1, 2]
    assert seen == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]
    assert [row["epoch"] for row in run.history] == [1, 2, 3] and run.epochs_done == 3
