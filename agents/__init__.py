"""Policies that play any huerta game through one interface (see `Agent`)."""

from .base import Agent
from .random_agent import RandomAgent
from .registry import agent_codes, make_agent

__all__ = ["Agent", "RandomAgent", "agent_codes", "make_agent"]
