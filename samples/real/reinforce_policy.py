# A REINFORCE policy network as the reinforcement-learning examples write it: numpy,
# itertools and torch.distributions are imported for the training script, the
# module keeps Python lists for the episode, and forward maps a state to action
# probabilities.
import argparse
import numpy as np
from itertools import count

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

gamma = 0.99


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.affine2 = nn.Linear(128, 2)

        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


if __name__ == "__main__":
    policy = Policy()
    optimizer = optim.Adam(policy.parameters(), lr=1e-2)
    for i_episode in count(1):
        state = torch.from_numpy(np.random.randn(1, 4).astype(np.float32))
        m = Categorical(policy(state))
        policy.saved_log_probs.append(m.log_prob(m.sample()))
