import os

# Oversubscribed BLAS/torch threads made training steps 60x slower on these 2-core machines.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
# The MiniLM empathy scorer is exercised by its own (slow) tests; elsewhere the lexical
# scorer keeps ticket episodes fast and identical across machines with and without the extra.
os.environ.setdefault("SUPPORTGYM_EMPATHY", "lexical")

import atexit  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

# The pipeline's critic memory must not leak between test runs through ~/.cache, nor stay in /tmp after them.
if "SUPPORTGYM_MEMORY_PATH" not in os.environ:
    _memory_dir = tempfile.mkdtemp(prefix="sg-mem-")
    atexit.register(shutil.rmtree, _memory_dir, ignore_errors=True)
    os.environ["SUPPORTGYM_MEMORY_PATH"] = os.path.join(_memory_dir, "lessons.sqlite")

import copy  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture
def scripted_tool_loop(monkeypatch):
    """Drive TRL's environment_factory tool loop with a scripted sampler (the tiny model cannot write
    tool calls): ``scripted_tool_loop(policy)`` makes GRPOTrainer sample with ``policy`` and returns a
    list to which every scored batch appends ``[(seed, actions, reward), ...]``, one per episode."""

    def install(policy):
        from trl import GRPOTrainer

        import supportgym.train.env_tools as env_tools

        monkeypatch.setattr(GRPOTrainer, "_generate_single_turn",
                            lambda self, prompt_ids, *a, **k: policy(self, prompt_ids, *a, **k))
        seen = []
        original = env_tools.EpisodeReward.__call__

        def recording(self, prompts, completions, environments=None, **kw):
            rewards = original(self, prompts, completions, environments=environments, **kw)
            seen.append([(e.seed, copy.deepcopy(e.actions), r) for e, r in zip(environments, rewards, strict=True)])
            return rewards

        monkeypatch.setattr(env_tools.EpisodeReward, "__call__", recording)
        return seen

    return install
