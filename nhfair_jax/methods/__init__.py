"""Bias-mitigation methods, one module each, found by name through the registry."""

from nhfair_jax.methods.erm import ERM  # registers "erm"
from nhfair_jax.methods.base import LossOutput, Method, cross_entropy
from nhfair_jax.methods.registry import get_method, register, registered

__all__ = ["ERM", "LossOutput", "Method", "cross_entropy", "get_method", "register", "registered"]
