#!/bin/sh
# Re-records the bundled sample trace, data/sample/sample.jvmtrace, from Demo.java.
#
#   data/sample/record-sample.sh [path/to/jvmscope-cli]     (default: build/app/jvmscope-cli)
#
# Run as root (perf records every CPU). The recording must not carry details of this machine:
# the JVM runs in an empty neutral folder with user.home and user.name set to neutral values,
# perf in a UTS namespace named "sample", and the JVM's clock log (library paths) is dropped
# once bundle.json holds the offset. docs/recording.md lists what was checked.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../../build/app/jvmscope-cli}
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
work=/tmp/jvmscope-sample
rm -rf "$work"
mkdir -p "$work/classes"
javac -d "$work/classes" "$here/Demo.java"
cd "$work"
# nice -10: on a shared machine, the demo's threads and not other users' work should fill the CPUs.
unshare --uts sh -c "hostname sample && exec nice -n -10 \"$cli\" record -o sample.jvmtrace --no-syscalls -- \
  java -Duser.home=/ -Duser.name=demo -Xmx256m -XX:-UseContainerSupport -cp classes demo.Demo ${SAMPLE_MILLIS:-5000}"
rm -f sample.jvmtrace/jvm-clock.log
python3 "$here/scrub-paths.py" sample.jvmtrace/kernel.perf.data

# What must not be in the sample: this machine's name, and paths under /work, /home, /root.
host=$(cat /proc/sys/kernel/hostname)
jfr print sample.jvmtrace/recording.jfr > jfr.txt
perf script --show-mmap-events --show-task-events -i sample.jvmtrace/kernel.perf.data > perf.txt 2>/dev/null
perf report --header-only -i sample.jvmtrace/kernel.perf.data > header.txt 2>/dev/null
for f in jfr.txt perf.txt header.txt sample.jvmtrace/bundle.json; do
  if grep -qE '/(work|home|root)/' "$f"; then
    echo "record-sample.sh: $f still names paths of this machine:" >&2
    grep -nE "/(work|home|root)/" "$f" | head -5 >&2
    exit 1
  fi
  # A short host name ("vm") is also a common word: look for it only where it would be.
  if [ ${#host} -ge 4 ] && grep -qw -- "$host" "$f"; then
    echo "record-sample.sh: $f names this machine, $host" >&2
    exit 1
  fi
done
grep -q '^# hostname : sample$' header.txt || { echo "record-sample.sh: perf's header names a host other than 'sample'" >&2; exit 1; }
rm -rf "$here/sample.jvmtrace"
cp -r sample.jvmtrace "$here/sample.jvmtrace"
chmod 644 "$here"/sample.jvmtrace/*
du -sh "$here/sample.jvmtrace"
