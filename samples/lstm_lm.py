# A small LSTM language model: token embeddings (row 0 is padding), a two-layer
# batch_first nn.LSTM, and a linear head giving next-token logits at every position.
# The recurrent layer is one aten::lstm over the whole sequence in every route (as
# torch.jit.trace and torch.jit.script record it), so batch size and sequence length
# stay symbolic; its state starts at zeros made from the batch size.
import torch
import torch.nn as nn


class LSTMLanguageModel(nn.Module):
    def __init__(self, vocab=20, embed=8, hidden=12, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed, padding_idx=0)
        self.lstm = nn.LSTM(embed, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        y, (h, c) = self.lstm(x)
        return self.head(y)
