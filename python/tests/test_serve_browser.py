"""`friction serve` in a real browser: headless Chromium (Debian's `chromium`
and `chromium-driver`, installed with apt-get when missing) driven by
Selenium. The gallery lists every model; a slider changes the plotted data;
an invalid value shows the server's message and keeps the last good plot; a
shipped example runs and shows its plots; no page logs a console error. The
screenshot of a model page is written to target/serve-screenshot.png
(docs/serve.png is a copy of it)."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _install_chromium():
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "chromium", "chromium-driver"]
    if subprocess.run(cmd, env=env).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env)
        subprocess.run(cmd, env=env)
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.fail("chromium and chromium-driver are missing and apt-get did not install them "
                    "(`apt-get install chromium chromium-driver`)")


@pytest.fixture(scope="module")
def server(cli):
    p = subprocess.Popen([cli, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line.startswith("friction serve: http://127.0.0.1:"), line
    url = line.split(": ", 1)[1].strip()
    yield url
    p.kill()
    p.wait()


@pytest.fixture(scope="module")
def driver():
    _install_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="friction-chromium-")
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1100"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    d.set_script_timeout(60)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait(d, js, timeout=60):
    """Poll the JavaScript expression `js` until it is truthy; its value."""
    end = time.time() + timeout
    while time.time() < end:
        v = d.execute_script("return " + js)
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {js}; page errors: {d.execute_script('return window.__friction && window.__friction.errors')}")


def severe(d, expected_400=False):
    """The page's SEVERE console entries; with `expected_400`, less the
    network log of the 400 answers the test provoked with invalid input."""
    out = []
    for e in d.get_log("browser"):
        if e["level"] != "SEVERE":
            continue
        if expected_400 and e.get("source") == "network" and "status of 400 (Bad Request)" in e["message"]:
            continue
        out.append(e)
    return out


def test_gallery_lists_every_model(server, driver):
    models = json.load(urllib.request.urlopen(server + "api/models"))
    driver.get(server)
    wait(driver, "window.__friction && window.__friction.ready")
    cards = driver.execute_script("return [...document.querySelectorAll('#gallery .card')].map(c => c.dataset.model)")
    assert cards == [m["id"] for m in models]
    assert len(cards) >= 36
    assert severe(driver) == []


def test_a_slider_changes_the_plot_and_a_bad_value_keeps_it(server, driver):
    driver.get(server)
    wait(driver, "window.__friction && window.__friction.ready")
    driver.execute_script("document.querySelector('.card[data-model=\"lugre\"]').click()")
    wait(driver, "window.__friction.responses >= 1")
    # the model's page replaces the gallery
    assert driver.find_element("id", "model-view").is_displayed()
    assert not driver.find_element("id", "gallery").is_displayed()
    before = driver.execute_script("return window.__friction.response.loop.F.slice()")
    # move the slider of fc (the Coulomb level) to its top: the loop's force grows
    driver.execute_script("""
        const s = document.querySelector('#params input[type=range][name=fc]');
        s.value = s.max; s.dispatchEvent(new Event('input'));""")
    wait(driver, "window.__friction.responses >= 2")
    after = driver.execute_script("return window.__friction.response.loop.F.slice()")
    assert max(after) > 1.5 * max(before), (max(before), max(after))
    fc = driver.execute_script("return window.__friction.params.fc")
    assert fc > 1.0
    driver.save_screenshot(str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "serve-screenshot.png"))
    # an invalid value: the server's message is shown and the plot kept
    driver.execute_script("""
        const i = document.querySelector('#params input[type=number][name=fc]');
        i.value = '-1'; i.dispatchEvent(new Event('input'));""")
    wait(driver, "!document.getElementById('model-error').hidden")
    msg = driver.find_element("id", "model-error").text
    assert "`fc` = -1 is out of range; valid range" in msg, msg
    assert driver.execute_script("return window.__friction.response.loop.F") == after
    assert driver.execute_script("return window.__friction.responses") == 2
    assert severe(driver, expected_400=True) == []


def test_a_shipped_example_runs_and_plots(server, driver):
    driver.get(server)
    wait(driver, "window.__friction && window.__friction.ready")
    driver.execute_script("document.querySelector('nav button[data-tab=scenarios]').click()")
    driver.execute_script("""
        const s = document.getElementById('example'); s.value = 'coulomb_free_decay';
        s.dispatchEvent(new Event('change'));""")
    wait(driver, "document.getElementById('scenario').value.includes('coulomb_free_decay')")
    driver.find_element("id", "run").click()
    wait(driver, "window.__friction.run && window.__friction.plots.run")
    n = driver.execute_script("return window.__friction.plots.run.data[0].length")
    assert n == 2501
    assert driver.execute_script("return window.__friction.plots.run.series.length") >= 2
    assert driver.execute_script("return document.querySelectorAll('#plot-run canvas').length") >= 1
    # an invalid scenario shows the command line's message
    driver.execute_script("""
        const t = document.getElementById('scenario'); t.value = t.value.replace('mass = 1.0', 'mass = -1.0');""")
    driver.find_element("id", "run").click()
    wait(driver, "!document.getElementById('run-error').hidden")
    assert "mass" in driver.find_element("id", "run-error").text
    assert severe(driver, expected_400=True) == []


def test_compare_and_sweep_pages(server, driver):
    driver.get(server)
    wait(driver, "window.__friction && window.__friction.ready")
    driver.execute_script("document.querySelector('nav button[data-tab=compare]').click()")
    for m in ["coulomb", "dahl"]:
        driver.execute_script(f"document.getElementById('compare-model').value = '{m}'; document.getElementById('compare-add').click()")
    wait(driver, "window.__friction.compareResponses && window.__friction.compareResponses.length == 2")
    driver.execute_script("document.querySelector('nav button[data-tab=sweep]').click()")
    driver.execute_script("""
        document.getElementById('grid1').value = 'spring.spring0.stiffness=1:4:3';
        document.getElementById('grid2').value = 'driver.puller.motion.rate=0.05:0.2:2';
        document.getElementById('sweep-run').click();""")
    wait(driver, "window.__friction.sweep", timeout=120)
    assert driver.execute_script("return window.__friction.sweep.points.length") == 6
    assert severe(driver) == []
