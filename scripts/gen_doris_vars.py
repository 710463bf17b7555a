#!/usr/bin/env python3
# gen_doris_vars.py SessionVariable.java GlobalVariable.java > engine/vars_doris.go
#
# Run gofmt -w on the output.
#
# Reads the @VarAttr variables of Doris's FE sources (names, flags, field
# defaults) and writes loadgw's table of them. It reads Java; it copies none.
import re, sys, json
def load(path):
    return open(path, encoding='utf-8').read()
def strip_comments(s):
    out=[];i=0;n=len(s)
    while i<n:
        c=s[i]
        if c=='"':
            j=i+1
            while s[j]!='"':
                j+= 2 if s[j]=='\\' else 1
            out.append(s[i:j+1]); i=j+1
        elif s.startswith('//',i):
            j=s.find('\n',i); i=n if j<0 else j
        elif s.startswith('/*',i):
            j=s.find('*/',i+2); i=j+2
        else:
            out.append(c); i+=1
    return ''.join(out)
consts={}
def scan_consts(s):
    for m in re.finditer(r'static\s+final\s+String\s+(\w+)\s*=\s*([^;]+);', s):
        consts[m.group(1)]=m.group(2).strip()
def resolve(e, depth=0):
    e=e.strip()
    parts=[p.strip() for p in split_plus(e)]
    res=''
    for p in parts:
        if p.startswith('"'): res+=json.loads(p)
        elif p in consts and depth<5: 
            r=resolve(consts[p],depth+1)
            if r is None: return None
            res+=r
        else: return None
    return res
def split_plus(e):
    parts=[];cur='';ins=False;i=0
    while i<len(e):
        c=e[i]
        if c=='"' :
            ins = not ins if (i==0 or e[i-1]!='\\') else ins
        if c=='+' and not ins: parts.append(cur);cur=''
        else: cur+=c
        i+=1
    parts.append(cur);return parts
def matching(s,i):
    depth=0;ins=False
    while True:
        c=s[i]
        if ins:
            if c=='\\': i+=2; continue
            if c=='"': ins=False
        elif c=='"': ins=True
        elif c=='(': depth+=1
        elif c==')':
            depth-=1
            if depth==0: return i
        i+=1
def attrs(a):
    d={}
    for key in ('name','flag','alias','varType'):
        m=re.search(r'(?<![\w.])'+key+r'\s*=\s*((?:"[^"]*"|[\w.|\s])+?)\s*(?:,|$)', a)
        if m: d[key]=m.group(1).strip()
    return d
def vars_of(s):
    res=[]
    for m in re.finditer(r'@(?:VariableMgr\.)?VarAttr\s*\(', s):
        st=m.end()-1; en=matching(s,st)
        a=s[st+1:en]
        rest=s[en+1:]
        # skip other annotations
        rest=rest.lstrip()
        while rest.startswith('@'):
            mm=re.match(r'@[\w.]+',rest); k=mm.end()
            if rest[k:].lstrip().startswith('('):
                k2=rest.index('(',k); k=matching(rest,k2)+1
            rest=rest[k:].lstrip()
        decl=rest[:rest.index(';')]
        dm=re.match(r'((?:public|private|protected|static|final|volatile|\s)*)([\w.<>,\s\[\]]+?)\s+(\w+)\s*(?:=\s*(.*))?$', decl, re.S)
        at=attrs(a)
        res.append((at, dm.group(2).strip(), dm.group(3), (dm.group(4) or '').strip()))
    return res
# Defaults Doris computes at run time or from other classes, as Doris shows
# them; time_zone and system_time_zone follow loadgw's zone (kind zone).
MANUAL = {
    'insert_visible_timeout_ms': '60000',
    'sql_mode': 'ONLY_FULL_GROUP_BY',
    'sql_select_limit': '9223372036854775807',
    'time_zone': '',
    'system_time_zone': '',
    'ignore_split_type': 'NONE',
    'force_sample_analyze': 'false',
    'max_msg_size_of_result_receiver': '104857600',
    'variable_version': '400',
    'version_comment': 'Doris version loadgw',
    'version': '5.7.99',
    'audit_plugin_max_insert_stmt_length': '2147483647',
}

def java_double(x):
    if x == 0:
        return '0.0'
    if 1e-3 <= abs(x) < 1e7:
        r = repr(float(x))
        return r if '.' in r or 'e' in r else r + '.0'
    m, e = ('%.17e' % x).split('e')
    m = repr(float(m)) if False else repr(x / 10 ** int(e))
    return m + 'E' + str(int(e))

def default(d):
    n, typ, init = d['name'], d['type'], d['init']
    if n in MANUAL:
        return MANUAL[n]
    if typ == 'String':
        if init == '':
            return ''
        return json.loads(init)
    if typ == 'boolean':
        if init in ('', 'false'):
            return 'false'
        assert init == 'true', (n, init)
        return 'true'
    e = init or '0'
    e = re.sub(r'(?<=\d)_(?=\d)', '', e)
    e = re.sub(r'(?<=\d)[LlDdFf]\b', '', e)
    e = re.sub(r'TimeUnit\.HOURS\.toMillis\((\d+)\)', r'(\1*3600000)', e)
    assert re.fullmatch(r'[\d\s.*/+()-]+', e), (n, init)
    v = eval(e)
    if typ in ('double', 'float'):
        return java_double(float(v))
    return str(int(v))

KIND = {'boolean': 'varBool', 'int': 'varInt', 'long': 'varLong', 'short': 'varInt',
        'byte': 'varInt', 'double': 'varDouble', 'float': 'varDouble', 'String': 'varString'}
FLAG = {'GLOBAL': 'varGlobal', 'READ_ONLY': 'varReadOnly', 'INVISIBLE': 'varInvisible',
        'SESSION_ONLY': 'varSessionOnly'}
PREFIX = {'DEPRECATED': 'deprecated_', 'EXPERIMENTAL': 'experimental_'}

def main():
    sv = strip_comments(load(sys.argv[1]))
    gv = strip_comments(load(sys.argv[2]))
    scan_consts(sv)
    scan_consts(gv)
    rows = {}
    for src in (sv, gv):
        for at, typ, field, init in vars_of(src):
            name = resolve(at['name'])
            assert name, at
            d = {'name': name, 'type': typ, 'init': ' '.join(init.split())}
            kind = KIND[typ]
            if name in ('time_zone', 'system_time_zone'):
                kind = 'varZone'
            if name == 'sql_mode':
                kind = 'varString'
            flags = [FLAG[f.split('.')[-1].strip()] for f in at.get('flag', '').split('|') if f.strip()]
            vt = at.get('varType', '').split('.')[-1]
            if vt == 'REMOVED':
                flags.append('varRemoved')
            rows[name] = (default(d), kind, flags, PREFIX.get(vt, ''))
    out = ['// Code generated by scripts/gen_doris_vars.py from Apache Doris\'s',
           '// fe/fe-core/src/main/java/org/apache/doris/qe/SessionVariable.java and',
           '// GlobalVariable.java (master, January 2026); DO NOT EDIT.',
           '', 'package engine', '',
           '// dorisVars are the session and global variables Doris defines, with',
           '// the defaults Doris shows.',
           'var dorisVars = map[string]varDef{']
    for name in sorted(rows):
        df, kind, flags, prefix = rows[name]
        f = ' | '.join(flags) if flags else '0'
        extra = ', prefix: %s' % json.dumps(prefix) if prefix else ''
        out.append('\t%s: {def: %s, kind: %s, flags: %s%s},' % (json.dumps(name), json.dumps(df, ensure_ascii=False), kind, f, extra))
    out.append('}')
    print('\n'.join(out))

main()
