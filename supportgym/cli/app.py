"""The Typer application objects; commands live in sibling modules named for them."""

import typer

from .. import __version__

app = typer.Typer(
    name="supportgym",
    help="Verifiable RL environments for customer-support agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
train_app = typer.Typer(help="Train agents (GRPO/SFT for LLMs; SAC/PPO/DQN on tooldesk).", no_args_is_help=True)
app.add_typer(train_app, name="train")


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"supportgym {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="print the version and exit"),
) -> None:
    """Verifiable RL environments for customer-support agents."""
