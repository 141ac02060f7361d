"""Grading of a submitted ticket: commitments, facts, policy, empathy, and the composite reward."""
