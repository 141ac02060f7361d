"""A small learning-rate / LoRA sweep for ``train grpo --policy lm --advantage expected`` (issue #15).

    OMP_NUM_THREADS=2 uv run --all-extras python benchmarks/grpo_sweep.py \
        --states-from runs/exp480-seed0 --out docs/figures/llm_expected_grpo_sweep.json

Every configuration is the README's recipe (480 train emails, 8 per step, top 4 layers,
choice temperature 4, seed 0) shortened to ``--steps`` updates and judged on the generated
*validation* split (``--eval-episodes`` x 10 emails, eval seed 1000), never on test: the
sweep chooses, test reports. The frozen layers' states depend only on the model, the top
layer count and the prompts, so a finished run's ``states_*.pt`` (``--states-from``) is
linked into every run folder instead of being recomputed (~800 s each).

Prints one JSON object (also written atomically to ``--out``): per configuration the
validation route / category accuracy, reward per email, the last 20 steps' training
reward and the update seconds. A configuration whose run folder already holds a finished
run with the same settings is read, not run again (delete the folder to rerun it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from supportgym.core.io import write_json_atomic

#: (name, learning rate, LoRA rank, LoRA alpha, targets): the recipe's row first, then one change at a time
GRID: list[tuple[str, float, int, int, str]] = [
    ("recipe", 5e-4, 16, 32, "q_proj,k_proj,v_proj,o_proj"),
    ("lr 2e-4", 2e-4, 16, 32, "q_proj,k_proj,v_proj,o_proj"),
    ("lr 1.5e-3", 1.5e-3, 16, 32, "q_proj,k_proj,v_proj,o_proj"),
    ("rank 4", 5e-4, 4, 8, "q_proj,k_proj,v_proj,o_proj"),
    ("rank 64", 5e-4, 64, 128, "q_proj,k_proj,v_proj,o_proj"),
    ("attention + MLP", 5e-4, 16, 32, "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"),
]


def run_one(name: str, lr: float, r: int, alpha: int, targets: str, args: argparse.Namespace) -> dict:
    run = Path(args.runs) / name.replace(" ", "_").replace("+", "plus")
    want = {"learning_rate": lr, "lora_r": r, "lora_alpha": alpha, "target_modules": targets.split(","),
            "max_steps": args.steps, "eval_split": "validation", "eval_episodes": args.eval_episodes,
            # the recipe's fixed part, so that a folder from another recipe is never read as this row
            "lora_layers": 4, "train_prompts": 480, "prompts_per_step": 8, "choice_temperature": 4.0, "seed": 0,
            "label_descriptions": True, "advantage": "expected"}
    if (run / "summary.json").exists() and _config_matches(run, want):
        return row_from(run, name, want)  # finished earlier with the same settings: not run again
    run.mkdir(parents=True, exist_ok=True)
    for states in Path(args.states_from).glob("states_*.pt"):
        link = run / states.name
        if not link.exists():
            link.symlink_to(states.resolve())
    cmd = [sys.executable, "-m", "supportgym", "train", "grpo", "--policy", "lm", "--advantage", "expected",
           "--lora-layers", "4", "--label-descriptions", "--train-prompts", "480", "--prompts-per-step", "8",
           "--max-steps", str(args.steps), "--learning-rate", str(lr), "--lora-r", str(r), "--lora-alpha", str(alpha),
           "--target-modules", targets, "--choice-temperature", "4", "--threads", str(args.threads),
           "--eval-split", "validation", "--eval-episodes", str(args.eval_episodes), "--eval-size", "10",
           "--eval-tasks", "", "--no-eval-before", "--no-resume", "--seed", "0", "--output-dir", str(run)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"name": name, "error": proc.stderr[-2000:]}
    return row_from(run, name, want)


def _config_matches(run: Path, want: dict) -> bool:
    if not (run / "config.json").exists():
        return False
    cfg = json.loads((run / "config.json").read_text())
    return all(cfg.get(k) == v for k, v in want.items())


def row_from(run: Path, name: str, want: dict) -> dict:
    """The table row of a finished run: validation accuracy and reward, training reward, time."""
    summary = json.loads((run / "summary.json").read_text())
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]
    rewards = [row["reward"] for row in rows if "reward" in row]
    after = summary.get("after") or {}
    return {"name": name, **{k: want[k] for k in ("learning_rate", "lora_r", "lora_alpha", "target_modules")},
            "val_route_accuracy": after.get("route_accuracy"), "val_category_accuracy": after.get("category_accuracy"),
            "val_reward_per_email": summary.get("after_mean_step_reward"),
            "train_reward_last20": sum(rewards[-20:]) / max(1, len(rewards[-20:])),
            "update_seconds": summary.get("update_seconds"), "total_seconds": summary.get("total_seconds")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states-from", required=True, help="a finished seed-0 480-email run folder with states_*.pt")
    ap.add_argument("--runs", default="runs/sweep", help="folder for the sweep's run folders")
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--eval-episodes", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated names from the grid (default: all)")
    ap.add_argument("--out", default="", help="also write the JSON here (atomically)")
    args = ap.parse_args()
    if not list(Path(args.states_from).glob("states_*.pt")):
        sys.exit(f"--states-from {args.states_from!r} holds no states_*.pt; give a finished run of the recipe "
                 "(seed 0, --train-prompts 480, --lora-layers 4)")
    names = {n.strip() for n in args.only.split(",") if n.strip()}
    unknown = names - {g[0] for g in GRID}
    if unknown:
        sys.exit(f"--only: unknown {sorted(unknown)}; allowed: {[g[0] for g in GRID]}")
    rows = []
    for g in GRID:
        if names and g[0] not in names:
            continue
        rows.append(run_one(*g, args))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    out = {"steps": args.steps, "eval": f"generated validation, {args.eval_episodes} x 10 emails, eval seed 1000",
           "rows": rows}
    if args.out:
        write_json_atomic(args.out, out)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
