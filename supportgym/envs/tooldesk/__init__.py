"""The tool-desk environment (``tooldesk-v0``) and its Gymnasium face.

Importing this package registers the Gymnasium ids ``SupportGym/ToolDesk-v0`` and
``SupportGym/ToolDeskBenchmark-v0``.
"""

from . import gym_env as _gym_env  # noqa: F401  (registers the Gymnasium ids)
