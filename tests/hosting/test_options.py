"""``caterpillar-learn serve``'s options, without starting a server."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from caterpillar_learn.cli import build_parser
from caterpillar_learn.network import allowed_hosts, is_loopback, lessons_urls, local_addresses
from caterpillar_learn.ui.hosting.serve import DEFAULT_CULL_SECONDS, DEFAULT_MAX_KERNELS, Hosting, voila_argv
from caterpillar_learn.ui.hosting.voila_app import host_name


def test_the_defaults_suit_a_class_on_one_computer() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.max_kernels, args.cull_after, args.solve_cache, args.allow_host) == (
        "localhost",
        DEFAULT_MAX_KERNELS,
        DEFAULT_CULL_SECONDS,
        None,
        [],
    )
    assert is_loopback(args.host)
    assert DEFAULT_MAX_KERNELS >= 31, "a class of 30 and the teacher"


@pytest.mark.parametrize("bad", [["--max-kernels", "-1"], ["--cull-after", "ten"], ["--max-kernels", "1.5"]])
def test_bad_limits_are_one_line_errors(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["serve", *bad])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and bad[0] in err


def test_voila_gets_the_token_cap_and_culling() -> None:
    hosting = Hosting(host="0.0.0.0", token="abc", max_kernels=3)
    argv = voila_argv(Path("lessons"), 8866, open_browser=False, hosting=hosting)
    assert "--Voila.ip=0.0.0.0" in argv and "--Voila.token=abc" in argv
    assert "--ClassroomKernelManager.max_kernels=3" in argv
    assert f"--MappingKernelManager.cull_idle_timeout={DEFAULT_CULL_SECONDS}" in argv
    assert "--MappingKernelManager.cull_connected=False" in argv
    assert "--VoilaConfiguration.show_tracebacks=False" in argv
    assert not any("token" in a for a in voila_argv(Path("lessons"), 8866, open_browser=False))


def test_the_host_header_must_name_this_computer() -> None:
    names = allowed_hosts("0.0.0.0", ["Lessons.School.Example"])
    assert {"localhost", "127.0.0.1", "::1", "lessons.school.example", socket.gethostname().lower()} <= names
    assert set(local_addresses()) <= names
    for foreign in ("evil.example", "192.0.2.254.nip.io", "lessons.school.example.evil.example"):
        assert host_name(f"{foreign}:8866") not in names


def test_every_interface_prints_one_address_per_network() -> None:
    urls = lessons_urls(8866, "0.0.0.0", "tok")
    assert urls and all(u.endswith(":8866/?token=tok") for u in urls)
    assert not any("127.0.0.1" in u for u in urls)
