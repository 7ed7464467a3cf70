# Random initialisation as pytorch/examples' word_language_model writes it: init_weights()
# with nn.init.uniform_ / nn.init.zeros_ on the encoder and decoder, the decoder's weight
# tied to the embedding matrix, an LSTM, and the model in eval mode (dropout off). The
# parity suite loads PyTorch's weights into d2s, so this checks that the initialisers run
# in __init__ in every route and leave PyTorch's parameters, names and tying.
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, ntoken=11, ninp=6, nhid=6, nlayers=2, dropout=0.3, tie_weights=True):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError("When using the tied flag, nhid must be equal to emsize")
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def init_hidden(self, bsz):
        weight = self.encoder.weight  # the example writes next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lm = RNNModel()
        self.eval()

    def forward(self, tokens):
        hidden = self.lm.init_hidden(tokens.size(1))
        out, (h, c) = self.lm(tokens, hidden)
        return out, h, c
