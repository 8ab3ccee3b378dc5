"""The page in headless Chromium: every plot loads (the page's own check
marks images whose naturalWidth is 0), a removed plot is caught by that
check, and a screenshot of the page is not blank.  On the committed
five-kernel sweep, from the DOM as Chromium laid it out: the summary is
the first table, every figure in it has its interval, no "no fit" row
appears, and the whole answer fits the first screen of a 1300x900
window (and does not in a narrower one: the check can fail)."""

import re
import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (Debian package "
    "chromium)")


def _chromium(tmp_path, url, *args):
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    profile.mkdir()
    out = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--virtual-time-budget=10000", *args,
         url], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def _body(dom):
    m = re.search(r"<body([^>]*)>", dom)
    assert m, "no <body> in the dumped DOM"
    return dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))


def test_every_plot_loads(sweep_report, tmp_path):
    dom = _chromium(tmp_path, (sweep_report["report"] / "index.html")
                    .as_uri(), "--dump-dom")
    body = _body(dom)
    assert body.get("data-images-broken") == "0", body
    assert body.get("data-images-loaded") == "5", body
    assert len(re.findall(r'<img [^>]*data-loaded="yes"', dom)) == 5


def test_missing_plot_is_caught(sweep_report, tmp_path):
    copy = tmp_path / "report"
    shutil.copytree(sweep_report["report"], copy)
    (copy / "memory.png").unlink()
    dom = _chromium(tmp_path, (copy / "index.html").as_uri(), "--dump-dom")
    body = _body(dom)
    assert body.get("data-images-broken") == "1", body
    assert re.search(r'<img src="memory.png"[^>]*data-loaded="no"', dom)
    assert "1 plot(s) failed to load." in dom


def test_screenshot_not_blank(sweep_report, tmp_path):
    import matplotlib.image as mpimg
    shot = tmp_path / "page.png"
    _chromium(tmp_path, (sweep_report["report"] / "index.html").as_uri(),
              f"--screenshot={shot}", "--window-size=1280,2400")
    pixels = mpimg.imread(str(shot))[:, :, :3]
    assert pixels.shape[:2] == (2400, 1280)
    not_white = (pixels < 0.95).any(axis=2).mean()
    assert not_white > 0.05, f"page is nearly blank ({not_white:.1%})"
    # Plot lines and bars: strongly blue pixels (tab:blue, the patched
    # variant) appear only inside the plots.
    blue = ((pixels[:, :, 2] > 0.6) & (pixels[:, :, 0] < 0.3)).mean()
    assert blue > 0.001, f"no plot colours on the page ({blue:.3%})"


FIRST_SCREEN = (1300, 900)


def _first_screen(kernels_report, tmp_path, width):
    dom = _chromium(tmp_path, (kernels_report["report"] / "index.html")
                    .as_uri(), "--dump-dom",
                    f"--window-size={width},{FIRST_SCREEN[1]}")
    return dom, _body(dom)


def test_kernels_summary_fits_the_first_screen(kernels_report, tmp_path):
    dom, body = _first_screen(kernels_report, tmp_path, FIRST_SCREEN[0])
    assert re.search(r"<table [^>]*>", dom).group(0) == \
        '<table id="summary-oracle-4000" class="summary">'
    cells = re.findall(r'<td data-variant="([^"]+)"([^>]*)>', dom)
    assert len(cells) == 9 * 5
    for variant, attrs in cells:
        assert "data-low=" in attrs and "data-high=" in attrs, variant
        assert ("data-ratio-low=" in attrs) == (variant != "stock"), variant
    assert "no fit" not in dom
    assert body.get("data-images-broken") == "0", body
    assert int(body.get("data-images-loaded")) == \
        len(re.findall(r"<img ", dom)) == 5
    assert int(body["data-summary-bottom"]) <= FIRST_SCREEN[1], body


def test_narrow_window_pushes_the_summary_below(kernels_report, tmp_path):
    _, body = _first_screen(kernels_report, tmp_path, 800)
    assert int(body["data-summary-bottom"]) > FIRST_SCREEN[1], body
