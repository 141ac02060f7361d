"""The policy network the tool-desk SAC agent acts with, and its checkpoint reader.

Inference needs only this module (torch); ``supportgym.train.sac_discrete`` imports the
same ``Actor`` to train it, so dependencies point from train to agents, never back.
"""

from __future__ import annotations

import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(inp: int, hidden: tuple[int, ...], out: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden:
        layers += [nn.Linear(inp, h), nn.ReLU()]
        inp = h
    layers.append(nn.Linear(inp, out))
    return nn.Sequential(*layers)


class Actor(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: tuple[int, ...]) -> None:
        super().__init__()
        self.net = mlp(obs_dim, hidden, n_actions)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def get_action(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = self(x)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        log_prob = F.log_softmax(logits, dim=1)
        return action, log_prob, log_prob.exp()

    @property
    def obs_dim(self) -> int:
        return int(self.net[0].in_features)

    @torch.no_grad()
    def greedy(self, x: np.ndarray) -> int:
        return int(self(torch.as_tensor(x, dtype=torch.float32).unsqueeze(0)).argmax(dim=1).item())


def load_actor(path: str | os.PathLike[str]) -> Actor:
    """Read a SAC checkpoint (weights and JSON only: ``weights_only=True``)."""
    ckpt = torch.load(path, map_location="cpu", weights_only=True)
    actor = Actor(ckpt["obs_dim"], ckpt["n_actions"], tuple(ckpt["hidden"]))
    actor.load_state_dict(ckpt["actor"])
    actor.eval()
    return actor
