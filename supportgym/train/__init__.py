"""LLM training: model setup, GRPO and SFT (TRL + PEFT); classic RL trainers of the tool desk live here too."""
