#!/usr/bin/env python3
# perf-split.py: classifies the samples of `perf script` (perf record -g of a
# process running server and go-sql-driver client together, e.g. e2e's
# BenchmarkPointLookupMySQL) by side (client, server, scheduler, sysmon, GC)
# and part (syscalls, engine, Pebble, protocol, driver, malloc), marking
# samples in the kernel [k]. See BENCHMARKS.md, issue 16, branch point50k.
#   perf record -F 3000 -g -p <pid> sleep 6; perf script | python3 scripts/perf-split.py
import sys, collections
# perf script output: header line then stack frames (indented), blank line between samples
cls = collections.Counter(); sub = collections.Counter(); total = 0
def classify(frames):
    syms = [f[1] for f in frames]
    kern = frames[0][2] if frames else False
    s = ' '.join(syms)
    if 'go-sql-driver' in s or 'database/sql' in s or 'runPointLookups' in s: side = 'client'
    elif 'dolthub/vitess' in s or 'loadgw/mysqlwire' in s or 'loadgw/engine' in s: side = 'server'
    elif 'gcBgMarkWorker' in s or 'gcDrain' in s or 'bgsweep' in s or 'bgscavenge' in s: side = 'gc-worker'
    elif 'runtime.sysmon' in s: side = 'sysmon'
    elif 'runtime.schedule' in s or 'findRunnable' in s or 'runtime.mcall' in s or 'park_m' in s or 'netpoll' in s or 'runtime.mstart' in s: side = 'scheduler'
    else: side = 'other'
    # what
    what = 'user'
    if kern: what = 'kernel'
    if 'github.com/go-sql-driver/mysql.connCheck' in s: return side, 'connCheck(read)'+(' [k]' if kern else '')
    for f in frames:
        n = f[1]
        if n in ('syscall.write','syscall.read','internal/poll.(*FD).RawRead'):
            what = n; break
        if 'connCheck' in n: what='connCheck(read)'; break
        if n.startswith('runtime.netpoll'): what='netpoll(epoll)'; break
        if n.startswith('runtime.futex'): what='futex'; break
        if n == 'runtime.usleep' or n=='runtime.usleep.abi0': what='usleep'; break
        if n.startswith('runtime.mallocgc') or n=='runtime.newobject' or n=='runtime.makeslice' or n.startswith('runtime.gcWriteBarrier') or n.startswith('runtime.wbBuf') or n.startswith('runtime.bulkBarrier'): what = 'alloc/barrier'; break
        if 'pebble' in n: what='pebble'; break
        if n.startswith('loadgw/engine') or n.startswith('loadgw/catalog') or n.startswith('loadgw/storage'): what='engine'; break
        if n.startswith('loadgw/mysqlwire') or 'dolthub/vitess' in n: what='protocol'; break
        if 'go-sql-driver' in n: what='driver'; break
        if n.startswith('database/sql'): what='database/sql'; break
    if what in ('user','kernel') and kern: what='kernel-other'
    elif kern: what += ' [k]'
    return side, what
frames=[]
for line in sys.stdin:
    line=line.rstrip('\n')
    if not line.strip():
        if frames:
            total+=1; side,what=classify(frames); cls[side]+=1; sub[(side,what)]+=1
        frames=[]; continue
    if line.startswith('\t') or line.startswith(' '):
        parts=line.strip().split(None,1)
        if len(parts)<2: continue
        rest=parts[1]
        sym=rest.rsplit(' (',1)[0]
        sym=sym.split('+0x')[0]
        kern='kernel.kallsyms' in rest
        frames.append((parts[0],sym,kern))
for k,v in cls.most_common(): print(f"{k:12s} {100*v/total:5.1f}%")
print()
for (s,w),v in sorted(sub.items(), key=lambda x:(-cls[x[0][0]],-x[1])):
    if 100*v/total>=0.3: print(f"{s:12s} {w:22s} {100*v/total:5.1f}%")
print('samples',total)
