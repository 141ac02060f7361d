"""Red team of 5 Dec: the Python clients on replies that are not the protocol, driven against in-process fakes
(an httpx.MockTransport for HTTP, a tiny websockets server on 127.0.0.1 for WebSocket)."""

from __future__ import annotations

import asyncio
import json
import threading

import httpx
import pytest

from supportgym.client import AsyncSupportGymClient, AsyncWSClient, RemoteError, SupportGymClient, WSClient

OBS = {"observation": {"x": 1}, "reward": 0.5, "done": False}

# ---- HTTP ------------------------------------------------------------------------------------------
HTTP_CASES = {
    "200 not json": (200, b"<html>ok</html>", "bad_reply"),
    "200 a list": (200, b"[1]", "bad_reply"),
    "200 no session_id": (200, json.dumps(OBS).encode(), "bad_reply"),
    "200 observation a list": (200, json.dumps({**OBS, "observation": [1], "session_id": "s"}).encode(), "bad_reply"),
    "200 done as text": (200, json.dumps({**OBS, "done": "false", "session_id": "s"}).encode(), "bad_reply"),
    "500 error as text": (500, json.dumps({"error": "boom"}).encode(), "http_error"),
    "502 html": (502, b"<html>Bad gateway</html>", "http_error"),
}


def _transport(status: int, body: bytes) -> httpx.MockTransport:
    return httpx.MockTransport(lambda request: httpx.Response(status, content=body))


@pytest.mark.parametrize("case", list(HTTP_CASES))
def test_http_client_turns_unexpected_replies_into_remote_errors(case):
    status, body, code = HTTP_CASES[case]
    with pytest.raises(RemoteError) as info:
        SupportGymClient("http://x", transport=_transport(status, body)).reset(seed=0)
    assert (info.value.status, info.value.code) == (status, code)
    assert "\n" not in str(info.value)


def test_http_clients_check_step_replies_too():
    client = SupportGymClient("http://x", transport=_transport(200, json.dumps({**OBS, "done": "false"}).encode()))
    client.session_id = "s"
    with pytest.raises(RemoteError, match="bad_reply: reset/step reply: done"):
        client.step({"a": 1})

    async def main():
        aclient = AsyncSupportGymClient("http://x", transport=httpx.MockTransport(
            lambda request: httpx.Response(200, content=b"[1]")))
        with pytest.raises(RemoteError, match="bad_reply"):
            await aclient.reset(seed=0)
    asyncio.run(main())


def test_http_client_still_reads_good_replies():
    client = SupportGymClient("http://x", transport=_transport(200, json.dumps({**OBS, "session_id": "s"}).encode()))
    r = client.reset(seed=0)
    assert (r.observation, r.reward, r.done, client.session_id) == ({"x": 1}, 0.5, False, "s")


# ---- WebSocket ---------------------------------------------------------------------------------------
WS_CASES = {
    "nonjson": ("not json", "bad_reply"),
    "list": ("[1,2]", "bad_reply"),
    "null": ("null", "bad_reply"),
    "datastr": (json.dumps({"type": "observation", "data": "x"}), "bad_reply"),
    "datalist": (json.dumps({"type": "observation", "data": [1]}), "bad_reply"),
    "errstatus": (json.dumps({"type": "error", "data": {"status": "abc", "reason": "boom", "message": "m"}}), "boom"),
    "errdatastr": (json.dumps({"type": "error", "data": "boom"}), "bad_reply"),
    "statetype": (json.dumps({"type": "state", "data": {"step_count": 3}}), "bad_reply"),
    "unknowntype": (json.dumps({"type": "ping", "data": OBS}), "bad_reply"),
    "donestr": (json.dumps({"type": "observation", "data": {**OBS, "done": "false"}}), "bad_reply"),
    "binary": (b"\x00\x01", "bad_reply"),
    "silent": (None, "timeout"),
    "good": (json.dumps({"type": "observation", "data": OBS}), None),
}


@pytest.fixture(scope="module")
def fake_ws():
    """A WebSocket server that answers every message on /<case> with that case's frame (or never)."""
    from websockets.asyncio.server import serve

    async def handler(ws):
        if ws.request.path.strip("/").startswith("closeafter"):  # a session that expires after its first reply
            async for _ in ws:
                await ws.send(WS_CASES["good"][0])
                break
            async for _ in ws:
                await ws.close(1008, "session_expired")
            return
        frame = WS_CASES[ws.request.path.strip("/").split("/")[0]][0]
        async for _ in ws:
            if frame is not None:
                await ws.send(frame)

    ready, stop = threading.Event(), None
    port = []

    def run():
        nonlocal stop

        async def main():
            nonlocal stop
            stop = asyncio.get_running_loop().create_future()
            async with serve(handler, "127.0.0.1", 0) as server:
                port.append(server.sockets[0].getsockname()[1])
                ready.set()
                await stop
        loop = asyncio.new_event_loop()
        run.loop = loop
        loop.run_until_complete(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield f"http://127.0.0.1:{port[0]}"
    run.loop.call_soon_threadsafe(stop.set_result, None)
    thread.join(10)


@pytest.mark.parametrize("case", list(WS_CASES))
def test_ws_client_turns_unexpected_frames_into_remote_errors(fake_ws, case):
    code = WS_CASES[case][1]
    with WSClient(f"{fake_ws}/{case}", timeout=0.5) as ws:
        if code is None:
            assert ws.reset(seed=0).done is False
            return
        with pytest.raises(RemoteError) as info:
            ws.reset(seed=0)
    assert info.value.code == code and "\n" not in str(info.value)
    if case == "errstatus":
        assert info.value.status == 0


@pytest.mark.parametrize("case", ["nonjson", "statetype", "donestr", "silent", "good"])
def test_async_ws_client_turns_unexpected_frames_into_remote_errors(fake_ws, case):
    code = WS_CASES[case][1]

    async def main():
        async with AsyncWSClient(f"{fake_ws}/{case}", timeout=0.5) as ws:
            if code is None:
                return (await ws.reset(seed=0)).done
            with pytest.raises(RemoteError) as info:
                await ws.reset(seed=0)
            return info.value.code
    assert asyncio.run(main()) == (False if code is None else code)


def test_ws_state_reply_must_be_a_state_frame(fake_ws):
    with WSClient(f"{fake_ws}/good", timeout=0.5) as ws, pytest.raises(RemoteError, match="type: allowed: 'state'"):
        ws.state()


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), True, "60"])
def test_ws_client_timeout_is_seconds_or_none(bad):
    """Review of 5 Dec: inf was an OverflowError, nan a ValueError, 0 timed every call out at once."""
    from supportgym.core.errors import ConfigError

    for cls in (WSClient, AsyncWSClient):
        with pytest.raises(ConfigError, match="allowed: seconds > 0, or None"):
            cls("http://127.0.0.1:1", timeout=bad)
    assert WSClient("http://127.0.0.1:1", timeout=None).timeout is None


def test_a_reply_without_observation_or_done_is_no_episode():
    """Review of 5 Dec: a proxy's 200 "{}" became StepResult(observation={}, done=False), and a loop ran on."""
    from supportgym.client import _observation_reply

    for data in ({}, {"observation": {}}, {"done": False}):
        with pytest.raises(RemoteError, match="missing"):
            _observation_reply(data)
    assert _observation_reply({"observation": {}, "done": False, "reward": None})["done"] is False


def test_ws_client_recovers_when_the_server_closes_the_connection(fake_ws):
    """Red team of 5 Dec (33rd session): after a session expired and the server closed the socket, every call and
    close() itself raised the websockets library's ConnectionClosedOK for good."""
    with WSClient(f"{fake_ws}/closeafter", timeout=2) as ws:
        assert ws.reset(seed=0).done is False
        with pytest.raises(RemoteError) as info:
            ws.step({"action_id": 0})
        assert info.value.code == "connection_closed" and "1008" in str(info.value) and "reset" in str(info.value)
        assert ws.reset(seed=0).done is False  # a new connection, a new session
        with pytest.raises(RemoteError, match="closed the connection"):
            ws.state()
    ws.close()  # closed already: nothing raised


def test_async_ws_client_recovers_when_the_server_closes_the_connection(fake_ws):
    async def main():
        async with AsyncWSClient(f"{fake_ws}/closeafter", timeout=2) as ws:
            first = (await ws.reset(seed=0)).done
            with pytest.raises(RemoteError) as info:
                await ws.step({"action_id": 0})
            again = (await ws.reset(seed=0)).done
            return first, info.value.code, again
    assert asyncio.run(main()) == (False, "connection_closed", False)


@pytest.mark.parametrize("err,code", [(httpx.RemoteProtocolError("Server disconnected without sending a response."),
                                       "unreachable"),
                                      (httpx.ReadTimeout("timed out"), "timeout"),
                                      (httpx.ConnectError("[Errno 111] Connection refused"), "unreachable")])
def test_http_client_turns_a_request_without_a_reply_into_a_remote_error(err, code):
    """33rd session's red team: httpx's own exceptions escaped the client (a server that hung up, or was slow), and
    close() raised them again."""
    def fail(request):
        raise err

    client = SupportGymClient("http://x", transport=httpx.MockTransport(fail))
    with pytest.raises(RemoteError) as info:
        client.reset(seed=0)
    assert info.value.code == code and "http://x/reset" in str(info.value)
    client.session_id = "s"
    client.close()  # the server is gone: nothing to close, nothing raised

    async def main():
        aclient = AsyncSupportGymClient("http://x", transport=httpx.MockTransport(fail))
        with pytest.raises(RemoteError) as ainfo:
            await aclient.reset(seed=0)
        aclient.session_id = "s"
        await aclient.close()
        return ainfo.value.code
    assert asyncio.run(main()) == code


@pytest.mark.parametrize("reward", ["NaN", "Infinity", "-Infinity"])
def test_a_reward_that_is_no_finite_number_is_a_bad_reply(reward):
    body = json.dumps({**OBS, "session_id": "s"}).replace('"reward": 0.5', f'"reward": {reward}').encode()
    with pytest.raises(RemoteError, match="reward: allowed: a finite number"):
        SupportGymClient("http://x", transport=_transport(200, body)).reset(seed=0)
