# An MNIST classifier written as the pytorch/examples scripts write theirs: script
# imports d2s does not implement (argparse, torch.optim, torch.utils.data) at the top,
# `super(Net, self).__init__()`, and a train loop that only the script part would run.
from __future__ import print_function
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print("Train Epoch: {} [{}/{}]\tLoss: {:.6f}".format(
                epoch, batch_idx * len(data), len(train_loader.dataset), loss.item()))


def main():
    parser = argparse.ArgumentParser(description="PyTorch MNIST-style MLP")
    parser.add_argument("--lr", type=float, default=0.01, metavar="LR")
    args = parser.parse_args()
    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=args.lr)
    loader = DataLoader(torch.load("mnist_train.pt"), batch_size=64, shuffle=True)
    train(args, model, "cpu", loader, optimizer, 1)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(28 * 28, 64)
        self.fc2 = nn.Linear(64, 32)
        self.fc3 = nn.Linear(32, 10)

    def forward(self, x):
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        output = F.log_softmax(x, dim=1)
        return output


if __name__ == "__main__":
    main()
