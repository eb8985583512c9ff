"""Adapters: the pi-extension behaviour of each primitive, written against a small log interface."""
