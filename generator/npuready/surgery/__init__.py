"""Model surgery (torch extra): channel dependencies on torch.fx, structured pruning, activation swap."""
