"""The HTML report in a real browser: headless Chromium (the Debian package; `.ci/run` installs it)
opens a fresh report of each game, and the test fails on an image that did not load, a console
message (the page has no scripts: any message is an error), a figure without a caption, or a
blank screenshot. Without Chromium the test is skipped, unless SIMKIT_BROWSER=required (as CI
sets it), where it fails."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import pytest

from simkit import experiments
from simkit.analyses.reports import make_report

ROOT = Path(__file__).parents[1]
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]
# appended to a copy of the page: what the test reads back from the rendered document
PROBE = """<script>window.addEventListener("load", () => {
  const broken = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt);
  const figures = [...document.querySelectorAll("figure")];
  const bare = figures.filter(f => !f.querySelector("img") || !(f.querySelector("figcaption")?.textContent.trim()));
  const loose = [...document.images].filter(i => !i.closest("figure")).map(i => i.alt);
  const links = [...document.querySelectorAll("nav a")].filter(a => !document.querySelector(a.getAttribute("href")));
  document.body.setAttribute("data-probe", JSON.stringify({images: document.images.length, broken,
    bare: bare.length, loose, dead: links.length, sections: document.querySelectorAll("section").length}));
});</script>"""

pytestmark = [pytest.mark.skipif(BROWSER is None and os.environ.get("SIMKIT_BROWSER") != "required",
                                 reason="Chromium is not installed (apt-get install chromium)"),
              pytest.mark.long]  # left out of the development subset (pyproject.toml)


@pytest.fixture(scope="module", params=["joker-timing", "ezelen-passing"])
def report(request, tmp_path_factory) -> Path:
    assert BROWSER, "SIMKIT_BROWSER=required but no chromium on PATH"
    folder = tmp_path_factory.mktemp("browser") / request.param
    experiments.run(str(ROOT / "experiments" / f"{request.param}.toml"), folder, hands=60, report=False)
    return make_report(str(folder))


def _chromium(*args: str, profile: Path) -> subprocess.CompletedProcess:
    return subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=120)


def test_the_report_renders_with_every_figure_loaded_and_captioned(report, tmp_path):
    probed = tmp_path / "probed.html"
    probed.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    done = _chromium("--enable-logging=stderr", "--v=0", "--dump-dom", probed.as_uri(), profile=tmp_path / "p")
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    assert not console, console
    found = json.loads(done.stdout.split('data-probe="', 1)[1].split('"', 1)[0].replace("&quot;", '"'))
    assert found["images"] >= 4 and found["broken"] == [], found
    assert found["bare"] == 0 and found["loose"] == [] and found["dead"] == 0, found
    assert found["sections"] >= 5, found


def test_the_screenshot_shows_a_page(report, tmp_path):
    shot = tmp_path / "report.png"
    done = _chromium(f"--screenshot={shot}", "--window-size=1280,1000", report.as_uri(), profile=tmp_path / "p")
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (1000, 1280)
    assert pixels[..., :3].std() > 0.05  # text, a figure: not a blank page
