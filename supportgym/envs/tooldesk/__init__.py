"""The tool-desk environment (``tooldesk-v0``, ``-v1``, ``-v2``) and its Gymnasium face.

Importing this package registers the Gymnasium ids ``SupportGym/ToolDesk-v0``,
``SupportGym/ToolDeskBenchmark-v0``, ``SupportGym/ToolDesk-v1``, ``SupportGym/ToolDeskHard-v1``,
``SupportGym/ToolDesk-v2`` and ``SupportGym/ToolDeskHard-v2``.
"""

from . import gym_env as _gym_env  # noqa: F401  (registers the Gymnasium ids)
