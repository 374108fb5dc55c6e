#!/usr/bin/env python3
"""flatpak/org.jvmscope.Jvmscope.json stays in step with meson.build.

The runtime cannot be downloaded here, so this checks what can be checked offline: the
manifest parses, names our app id and a GNOME runtime with its SDK, keeps the sandbox minimal,
pins every downloaded source with a sha256, uses a build system that matches each source,
passes only -D options that meson_options.txt declares, and builds exactly the libraries that
meson.build's dependency() calls need and flatpak/runtime-provides.json says the runtime lacks.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile

from jvms_tap import Tap

REQUIRED_ARGS = {"--share=ipc", "--socket=wayland", "--socket=fallback-x11", "--device=dri"}
# Permissions a trace viewer does not need: files come through the portal, traces never
# from the network, and host command execution would void the sandbox (docs/desktop-integration.md).
FORBIDDEN_PREFIXES = ("--share=network", "--filesystem=", "--socket=x11", "--socket=session-bus",
                      "--socket=system-bus", "--device=all", "--talk-name=org.freedesktop.Flatpak",
                      "--allow=devel")
MESON_BUILTINS = {"buildtype", "optimization", "debug", "werror", "warning_level", "b_lto",
                  "b_ndebug", "b_pie", "b_sanitize", "b_lundef", "prefix", "libdir", "default_library",
                  "wrap_mode", "auto_features", "strip"}
DEPENDENCY_CALL = re.compile(r"""\bdependency\s*\(\s*['"]([^'"]+)['"]""")
OPTION_DECL = re.compile(r"""\boption\s*\(\s*['"]([^'"]+)['"]""")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
ARCHIVE_EXT = (".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz", ".zip")


def meson_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        # Build folders and VCS data hold copies or nothing of ours.
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith((".", "build", "subprojects")))
        for name in filenames:
            if name == "meson.build":
                yield os.path.join(dirpath, name)


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--app-id", required=True)
    args = parser.parse_args()
    root = args.source_root
    tap = Tap()

    path = os.path.join(root, "flatpak", args.app_id + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
        ok = isinstance(manifest, dict)
        err = ""
    except (OSError, ValueError) as e:
        manifest, ok, err = {}, False, str(e)
    if not tap.check(ok, "the manifest is valid JSON", err):
        tap.done()
    with open(os.path.join(root, "flatpak", "runtime-provides.json"), encoding="utf-8") as f:
        runtime = json.load(f)

    # flatpak-builder's own parser: it warns (and still exits 0) on a property or source type it
    # does not know, which is how a misspelt key would silently be ignored in a real build.
    builder = shutil.which("flatpak-builder")
    if tap.check(builder is not None, "flatpak-builder is installed", "run scripts/install-deps.sh"):
        with tempfile.TemporaryDirectory(prefix="jvms-flatpak-") as tmp:
            r = subprocess.run([builder, "--show-manifest", path], cwd=tmp, capture_output=True, text=True)
        try:
            parsed = json.loads(r.stdout) if r.returncode == 0 else {}
        except ValueError:
            parsed = {}
        tap.check(r.returncode == 0 and "WARNING" not in r.stderr and "CRITICAL" not in r.stderr,
                  "flatpak-builder --show-manifest parses it without warnings", r.stderr)
        tap.check(parsed.get("finish-args") == manifest.get("finish-args")
                  and [m.get("name") for m in parsed.get("modules", [])]
                  == [m.get("name") for m in manifest.get("modules", [])],
                  "flatpak-builder reads back the same modules and permissions")

    tap.check(manifest.get("id") == args.app_id, "manifest id is the app id", manifest.get("id"))
    tap.check(manifest.get("runtime") == "org.gnome.Platform" and manifest.get("sdk") == "org.gnome.Sdk",
              "runtime is org.gnome.Platform with org.gnome.Sdk")
    version = str(manifest.get("runtime-version", ""))
    tap.check(version.isdigit() and int(version) >= 47, "runtime-version is a current GNOME release",
              version)
    tap.check(runtime.get("runtime-version") == version and runtime.get("runtime") == manifest.get("runtime"),
              "runtime-provides.json describes the same runtime", runtime.get("runtime-version"))
    tap.check(manifest.get("command") == "jvmscope", "command is jvmscope", manifest.get("command"))

    finish = manifest.get("finish-args", [])
    tap.check(REQUIRED_ARGS <= set(finish), "finish-args give display, GPU and IPC",
              "missing: %s" % sorted(REQUIRED_ARGS - set(finish)))
    bad = [a for a in finish if a.startswith(FORBIDDEN_PREFIXES)]
    tap.check(not bad, "finish-args grant no network, file system or host access", "\n".join(bad))
    extra = sorted(set(finish) - REQUIRED_ARGS)
    tap.check(not extra, "finish-args hold nothing beyond the minimal sandbox", "\n".join(extra))

    modules = manifest.get("modules", [])
    names = [m.get("name") for m in modules if isinstance(m, dict)]
    tap.check(len(names) == len(modules) and all(names), "every module is an object with a name")
    tap.check(names and names[-1] == "jvmscope", "jvmscope is the last module", names)

    with open(os.path.join(root, "meson_options.txt"), encoding="utf-8") as f:
        options = set(OPTION_DECL.findall(strip_comments(f.read())))

    for m in modules:
        name = m.get("name")
        system = m.get("buildsystem", "autotools")
        sources = m.get("sources", [])
        tap.check(len(sources) > 0, "%s: has sources" % name)
        for s in sources:
            kind = s.get("type")
            if kind in ("archive", "file"):
                url = s.get("url", "")
                tap.check(url.startswith("https://"), "%s: source URL is https" % name, url)
                tap.check(bool(SHA256.match(s.get("sha256", ""))), "%s: source pinned by sha256" % name,
                          s.get("sha256"))
                if kind == "archive":
                    tap.check(url.endswith(ARCHIVE_EXT), "%s: archive URL names an archive" % name, url)
                # A release tarball of an autotools project ships configure; a git snapshot
                # would need autogen. We only accept the former for autotools modules.
                if system == "autotools":
                    tap.check("/archive/" not in url and "/snapshot/" not in url,
                              "%s: autotools module uses a release tarball (with configure)" % name, url)
            elif kind == "git":
                tap.check(bool(re.match(r"^[0-9a-f]{40}$", s.get("commit", ""))),
                          "%s: git source pinned to a commit" % name, s)
            elif kind == "dir":
                src = os.path.normpath(os.path.join(root, "flatpak", s.get("path", "")))
                tap.check(os.path.samefile(src, root), "%s: dir source is the project root" % name, src)
                if system == "meson":
                    tap.check(os.path.isfile(os.path.join(src, "meson.build")),
                              "%s: meson module has a meson.build" % name)
            else:
                tap.check(False, "%s: source type %s is known" % (name, kind))
        tap.check(system in ("meson", "autotools", "cmake", "cmake-ninja", "simple"),
                  "%s: build system %s is one flatpak-builder knows" % (name, system))
        if name == "jvmscope":
            tap.check(system == "meson", "jvmscope builds with meson", system)
            for opt in m.get("config-opts", []):
                mo = re.match(r"^(?:-D|--)([A-Za-z0-9_]+)(?:=|$)", opt)
                key = mo.group(1) if mo else None
                tap.check(key is not None and (key in options or key in MESON_BUILTINS),
                          "jvmscope: option %s exists in meson_options.txt or meson" % opt,
                          "declared: %s" % sorted(options))

    needed = set()
    for mb in meson_files(root):
        with open(mb, encoding="utf-8") as f:
            needed.update(DEPENDENCY_CALL.findall(strip_comments(f.read())))
    provided_by_runtime = set(runtime.get("provides", {}))
    bundled = set(names) - {"jvmscope"}
    tap.note("meson.build needs: %s" % ", ".join(sorted(needed)))
    tap.note("runtime provides: %s; manifest builds: %s"
             % (", ".join(sorted(provided_by_runtime & needed)), ", ".join(sorted(bundled))))
    unmet = sorted(needed - provided_by_runtime - bundled)
    tap.check(not unmet, "every dependency() of meson.build is in the runtime or built by the manifest",
              "neither in flatpak/runtime-provides.json nor a module: %s" % unmet)
    unused = sorted(bundled - needed)
    tap.check(not unused, "every bundled module is needed by a dependency()",
              "built but never asked for: %s" % unused)
    twice = sorted(bundled & provided_by_runtime)
    tap.check(not twice, "no module rebuilds what the runtime has", "%s" % twice)
    tap.done()


if __name__ == "__main__":
    main()
