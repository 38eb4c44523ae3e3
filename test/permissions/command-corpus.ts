/**
 * The command corpus of the differential test: shell commands an attacker-steered model could
 * send, generated deterministically from a seed so that every run judges and executes the same
 * list. Four sources, all written against the file tree that `differential-watch.ts` builds
 * (see `TREE_FILES` there): every option and operand of every allow-listed program alone; random
 * mutations of those (several options, quoting, expansions, redirections, a second command);
 * sed scripts and `test` expressions built from their grammars; and the attack shapes issue 23
 * reported, written out by hand.
 */

/** Where the tree's outside lies, to name it in commands (the classifier must catch those). */
export interface CorpusPlaces {
  /** A folder outside the tree holding `secret`, `dir/inner` (the tree's `lnk` points here). */
  outside: string;
  /** The HOME commands run with, holding `.netrc`, `.ssh/id_rsa` and `secret`. */
  home: string;
}

/** What one program is given: options alone and with values, and the words it may operate on. */
interface ProgramForms {
  options: readonly string[];
  operands: readonly string[];
  /** Operand lists that only make sense together (`diff a b`, `seq 1 3`). */
  operandLists?: readonly string[];
}

/** A small seeded generator (mulberry32): the same seed gives the same corpus on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function fileOperands(places: CorpusPlaces): string[] {
  return [
    "a.txt",
    "b.txt",
    "src",
    "src/main.ts",
    "data.json",
    "'sp ace.txt'",
    ".hidden",
    "-",
    "/dev/null",
    // Links: out of the tree, to a file out of it, dangling, relative, and `..` taken after a link.
    "lnk",
    "lnk/",
    "lnk/secret",
    "lnk-file",
    "dangling",
    "sub/rel-lnk/secret",
    "lnk/../home/secret",
    // Globs, braces and expansions that hide a path.
    "*.txt",
    "src/*",
    "lnk/sec*",
    "l*/secret",
    "*/secret",
    "s*/rel-lnk/*",
    "{a.txt,lnk/secret}",
    `{${places.outside}/secret,a.txt}`,
    "{a,b}.txt",
    "$HOME",
    "$HOME/.netrc",
    '"$HOME"/secret',
    "~",
    "~/.netrc",
    "~root",
    "'$HOME'",
    "${HOME}",
    "$PWD/a.txt",
    `${places.outside}/secret`,
    "../outside/secret",
    "src/../../outside/secret",
    `${places.home}/.ssh/id_rsa`,
  ];
}

/**
 * Every allow-listed program (the differential test checks that this list covers them all),
 * with the options that only read and those that write, run a program or read a named file.
 */
function programForms(places: CorpusPlaces): Record<string, ProgramForms> {
  const files = fileOperands(places);
  const secret = `${places.outside}/secret`;
  return {
    ls: {
      options: [
        "-l",
        "-a",
        "-la",
        "-R",
        "-L",
        "-lL",
        "-RL",
        "--dereference",
        "-d",
        "-1",
        "-h",
        "--color=never",
        "-i",
        "-t",
        "-S",
        "-r",
        "--hide=x",
        "-I x",
        "-H",
      ],
      operands: files,
    },
    cat: { options: ["-n", "-A", "-v", "-e", "-s", "-b"], operands: files },
    head: { options: ["-n 2", "-n2", "-c 5", "-q", "-v", "--lines=2", "-n -1"], operands: files },
    tail: { options: ["-n 2", "-n+2", "-c 5", "-q", "-v", "--lines=1", "--pid=1"], operands: files },
    wc: {
      options: ["-l", "-c", "-w", "-m", "-L", "--files0-from=files0.bin", "--files0-from=-", "--files0-from files0.bin"],
      operands: files,
    },
    echo: { options: ["-n", "-e", "-E"], operands: ["hello", "$HOME", "'$(id)'", '"$HOME"', "~", "a\\ b", "'x[$(id)]'"] },
    pwd: { options: ["-P", "-L"], operands: [] },
    whoami: { options: ["--version"], operands: [] },
    id: { options: ["-u", "-g", "-n -u", "-G"], operands: ["root", "nobody"] },
    uname: { options: ["-a", "-r", "-m", "-s"], operands: [] },
    which: { options: ["-a"], operands: ["ls", "cat", "sh", "'x y'"] },
    type: { options: ["-a", "-t", "-p", "-P"], operands: ["ls", "cd", "'x[$(id)]'"] },
    stat: { options: ["-c %s", "--printf=%n", "-L", "-f", "-t", "--format=%F"], operands: files },
    du: {
      options: [
        "-s",
        "-h",
        "-a",
        "-L",
        "-sL",
        "--dereference",
        "-x",
        "--max-depth=1",
        "-d 1",
        "--files0-from=files0.bin",
        "--exclude-from=list.txt",
        "-X list.txt",
        "-D",
      ],
      operands: files,
    },
    df: { options: ["-h", "-T", "-i", "-P"], operands: [".", "a.txt", "lnk"] },
    grep: grepForms(files, secret),
    egrep: grepForms(files, secret),
    fgrep: grepForms(files, secret),
    diff: {
      options: [
        "-u",
        "-r",
        "-q",
        "-N",
        "-ru",
        "--from-file=a.txt",
        `--to-file=${secret}`,
        "--no-dereference",
        "-X list.txt",
        `--exclude-from=${secret}`,
      ],
      operands: files,
      operandLists: ["a.txt b.txt", "src lnk", ". lnk", "sub src", `a.txt ${secret}`, "a.txt lnk-file", "src sub"],
    },
    cmp: {
      options: ["-l", "-s", "-n 5", "-i 1", "-b"],
      operands: files,
      operandLists: ["a.txt b.txt", "a.txt lnk-file", "a.txt lnk/secret"],
    },
    cut: { options: ["-d, -f1", "-c1-3", "-b1", "-f2", "--complement -c1", "-s -f1"], operands: files },
    tr: {
      options: ["-d", "-s", "-c", "-cd"],
      operands: ["a-z", "A-Z", "'[:lower:]'", "'\\n'"],
      operandLists: ["a-z A-Z", "-d x", "'[:lower:]' '[:upper:]'"],
    },
    column: { options: ["-t", "-s,", "-c 80", "-x", "-n"], operands: files },
    nl: { options: ["-ba", "-nrz", "-w3", "-s:"], operands: files },
    basename: { options: ["-s .txt", "-a", "-z"], operands: files },
    dirname: { options: ["-z"], operands: files },
    realpath: { options: ["-e", "-m", "-s", "--relative-to=.", "-L", "-P"], operands: files },
    readlink: { options: ["-f", "-e", "-m", "-n", "-v"], operands: files },
    true: { options: ["--help"], operands: ["x", "$HOME"] },
    false: { options: [], operands: ["x"] },
    test: { options: [], operands: [] },
    "[": { options: [], operands: [] },
    seq: { options: ["-s,", "-w", "-f %g"], operands: ["3", "1 3", "1 2 5"] },
    jq: {
      options: [
        "-r",
        "-c",
        "-n",
        "-s",
        "-e",
        "-S",
        "--tab",
        "--indent 2",
        "-j",
        "-a",
        "--arg x y",
        "--argjson x 1",
        `--rawfile x ${secret}`,
        "--rawfile x lnk/secret",
        `--slurpfile x ${secret}`,
        "--slurpfile x a.txt",
        "-f lib.jq",
        "--from-file lib.jq",
        `-L ${places.outside}`,
        "-L lnk",
        "--args",
        "--jsonargs",
        "--seq",
      ],
      operands: [
        ".",
        ".k",
        "'.k[0]'",
        "'input_filename'",
        "'$__loc__'",
        "'env.HOME'",
        "'$ENV.PATH'",
        "'@sh \"echo \\(.)\"'",
        "'import \"lnk/secret\" as s; .'",
        "'include \"x\"; .'",
        "'input'",
        "'[inputs]'",
        "'$__prog_args'",
        "'get_search_list'",
        "data.json",
        "lnk/secret",
        secret,
      ],
      operandLists: [
        ". data.json",
        ".k data.json",
        "-n '\"x\"'",
        ". lnk/secret",
        `. ${secret}`,
        "'input' data.json lnk/secret",
        "-n '[limit(3;repeat(1))]'",
      ],
    },
    md5sum: checksumForms(files),
    sha1sum: checksumForms(files),
    sha256sum: checksumForms(files),
    sha512sum: checksumForms(files),
    cksum: { options: ["-a md5", "--check", "-c", "--untagged -a sha256"], operands: ["a.txt", "sums.txt", "lnk/secret"] },
    ps: {
      options: [
        "aux",
        "-ef",
        "e",
        "-e",
        "auxe",
        "eww",
        "-o pid,comm",
        "-o pid,args",
        "-p 1",
        "--forest",
        "-A",
        "ax",
        "-eo pid,cmd",
        "axe",
        "ewwf",
      ],
      operands: [],
    },
    uptime: { options: ["-p", "-s"], operands: [] },
    free: { options: ["-h", "-m", "-w"], operands: [] },
    nproc: { options: ["--all", "--ignore=1"], operands: [] },
    lsof: { options: ["-p 1", "-n", "+D .", "-i", "-Fn", "-c bash"], operands: ["a.txt", "lnk/secret"] },
    sleep: { options: [], operands: ["0", "0.01", "0s"] },
    printf: {
      options: ["-v x", "--", "-v 'x[$(id)]'"],
      operands: ["'%s\\n' a", "'%d' 1", "'%d' 'x[$(id)]'", "'%b' 'a\\nb'", "'%q' '$HOME'", "'%(%s)T' 0", "x"],
    },
    env: { options: ["-i", "-u HOME", "-0", "-S 'cat a.txt'", "--", "-C lnk"], operands: ["cat a.txt", "FOO=1", "sh -c id"] },
    printenv: { options: ["-0"], operands: ["HOME", "PATH"] },
    file: {
      options: ["-b", "-i", "-L", "-f list.txt", "--files-from list.txt", "-f -", "-m magic", "-C", "-z", "-s", "--mime-type", "-k", "-F:"],
      operands: files,
    },
    tree: {
      options: ["-a", "-L 2", "-l", "-o out.txt", "-R", "-H x", "--fromfile", "-J", "-f", "-d", "--noreport", "-P '*.ts'", "-I x", "-al"],
      operands: [".", "src", "lnk", "sub"],
    },
    sort: {
      options: [
        "-u",
        "-r",
        "-n",
        "-k2",
        "-t, -k1",
        "-o out.txt",
        "-oout.txt",
        "--output=out.txt",
        "-T out",
        "--compress-program=sh",
        "--files0-from=files0.bin",
        "--random-source=lnk/secret",
        "-m",
        "-c",
        "--check=quiet",
        "-uo out.txt",
      ],
      operands: files,
    },
    uniq: { options: ["-c", "-d", "-u", "-i", "-f 1"], operands: files, operandLists: ["a.txt out.txt", "a.txt b.txt", "a.txt -"] },
    date: {
      options: [
        "-u",
        "-Iseconds",
        "-d yesterday",
        "-r a.txt",
        "-r lnk/secret",
        "-f list.txt",
        `-f ${secret}`,
        "--file=lnk/secret",
        "-s now",
        "--set=now",
        "-R",
        "--date=@0",
        "--debug",
      ],
      operands: ["+%s", "+%Y-%m-%d", "0101", "010112002025"],
    },
    rg: {
      options: [
        "-n",
        "-i",
        "-l",
        "--files",
        "-L",
        "--follow",
        "--pre sh",
        "--pre=cat",
        "-z",
        "--search-zip",
        "-g '*.ts'",
        "--hidden",
        "-f patterns.txt",
        `-f ${secret}`,
        "--ignore-file list.txt",
        "--no-config",
        "--json",
        "-uu",
        "-j 1",
        "--type-add 'x:*.x'",
        "--hostname-bin=sh",
        "-Lu",
        "--files -L",
      ],
      operands: ["alpha", "-e alpha", "alpha .", "alpha src", "alpha lnk", "alpha sub", "secret", `alpha ${places.outside}`, "alpha $HOME"],
    },
    sed: {
      options: [
        "-n",
        "-E",
        "-s",
        "-i",
        "-i.bak",
        "--in-place",
        "-n -i",
        "-ni",
        "-f script.sed",
        "--file=script.sed",
        "--follow-symlinks",
        "-u",
        "-z",
        "--posix",
        "-e p",
        "--expression=p",
        "-l 5",
        "--debug",
        "--sandbox",
      ],
      operands: ["p a.txt", "1p a.txt", "'s/a/b/' a.txt", "'1d' lnk/secret", "-n p a.txt"],
    },
    find: {
      options: [
        "-name '*.ts'",
        "-type f",
        "-type l",
        "-maxdepth 1",
        "-print",
        "-print0",
        "-ls",
        "-newer a.txt",
        "-printf '%p\\n'",
        "-follow",
        "-xtype f",
        "-exec cat {} \\;",
        "-execdir true \\;",
        "-delete",
        "-fprint out.txt",
        "-fls out.txt",
        "-ok cat {} \\;",
        "-regex '.*'",
        "-files0-from list.txt",
        "-empty",
        "-size +0",
      ],
      operands: [".", "src", "lnk", "sub", "lnk/", "-L .", "-H lnk", "-L sub", places.outside, "$HOME"],
    },
    git: { options: [], operands: [], operandLists: gitForms(secret) },
    npm: {
      options: [],
      operands: [],
      operandLists: [
        "ls",
        "list",
        "ls --json",
        "ls --depth=0",
        "ls -a",
        "view react",
        "info x",
        "outdated",
        "install",
        "run x",
        "ls --prefix=/",
        "ls --userconfig=lnk/secret",
        "exec -- id",
        "explore x",
      ],
    },
    node: {
      options: [],
      operands: [],
      operandLists: ["--version", "-v", '-e \'require("fs").writeFileSync("p","")\'', "a.js", "-p 1", "--require ./a.js"],
    },
  };

  function grepForms(fileList: string[], secretFile: string): ProgramForms {
    return {
      options: [
        "-r",
        "-R",
        "-rn",
        "-Rn",
        "-nR",
        "-i",
        "-n",
        "-l",
        "-c",
        "-e alpha",
        "-f patterns.txt",
        `-f${secretFile}`,
        `-f ${secretFile}`,
        "--file=lnk/secret",
        "--include='*.ts'",
        "--exclude-from=list.txt",
        "-d recurse",
        "--directories=recurse",
        "--dereference-recursive",
        "-Z",
        "-z",
        "-o",
        "-H",
        "-s",
        "-rL",
      ],
      operands: [
        "alpha",
        "alpha a.txt",
        "alpha .",
        "alpha src",
        "alpha lnk",
        "alpha sub",
        "secret lnk/secret",
        ...fileList.map((file) => `alpha ${file}`),
      ],
    };
  }

  function checksumForms(fileList: string[]): ProgramForms {
    return { options: ["-c", "--check", "-b", "--tag", "-z", "-c --quiet", "--status -c"], operands: [...fileList, "sums.txt"] };
  }
}

function gitForms(secret: string): string[] {
  return [
    "status",
    "status -s",
    "log --oneline -3",
    "log -p",
    "diff",
    "diff HEAD",
    "show HEAD",
    "show HEAD:a.txt",
    "log --output=out.txt",
    "log --out=out.txt",
    "-c core.pager=sh log",
    "-C .. status",
    "-C lnk status",
    "grep -O alpha",
    "grep --open-files-in-pager=sh alpha",
    "grep alpha",
    "diff --ext-diff",
    "config --get user.name",
    "config user.name x",
    "config -l",
    "branch",
    "branch new",
    "branch -a",
    "tag",
    "tag v1",
    "stash",
    "stash list",
    "stash show",
    "remote -v",
    "remote add o u",
    "ls-files",
    "rev-parse HEAD",
    "blame a.txt",
    `diff --no-index a.txt ${secret}`,
    "diff --no-index a.txt lnk/secret",
    "--no-pager log -1",
    "log --format=%H",
    "cat-file -p HEAD",
    "ls-tree HEAD",
    "describe --always",
    "shortlog -s HEAD",
    "for-each-ref",
    "show-ref",
    "name-rev HEAD",
    "count-objects",
    "version",
    "--version",
    "log -p --textconv",
    "diff --output=x",
    `blame --contents=${secret} a.txt`,
    "--git-dir=lnk log",
    "--work-tree=lnk status",
    "log -- lnk/secret",
    "show HEAD --output=x",
    "cat-file --filters HEAD:a.txt",
    "rev-list --all",
    "merge-base HEAD HEAD",
  ];
}

/** sed scripts from sed's grammar: addresses, buffer commands, labels followed by more, and every file/exec command. */
function sedScripts(random: () => number, places: CorpusPlaces, count: number): string[] {
  const addresses = ["", "", "1", "2", "$", "/alpha/", "\\%beta%", "1,2", "1~2", "/a/,+1", "0,/a/", "2!", "/a/I", "1,$"];
  const commands = [
    "p",
    "P",
    "=",
    "d",
    "D",
    "n",
    "N",
    "g",
    "G",
    "h",
    "H",
    "x",
    "z",
    "l",
    "l 5",
    "q",
    "q5",
    "Q",
    "s/a/b/",
    "s/a/b/g",
    "s/a/b/w out.txt",
    "s/a/b/e",
    "s/.*/id/e",
    "s/a/b/pw out.txt",
    "s/a/b/gw /dev/stdout",
    "s|a|b|gI",
    "s/a/b/3",
    "s/a/b/m",
    "s/\\//x/",
    "y/ab/ba/",
    ":a",
    ":a e id",
    ":a;N;ba",
    ":x w out.txt",
    "b end w out.txt",
    "t x w out.txt",
    "T x r lnk/secret",
    "b",
    "t",
    "T",
    "e id",
    "e",
    "w out.txt",
    "W out.txt",
    "w /dev/stdout",
    "r lnk/secret",
    `r ${places.outside}/secret`,
    "R a.txt",
    "R lnk/secret",
    "F",
    "v",
    "v 4.2",
    "a text",
    "a\\",
    "i hello",
    "c bye",
    "a\\\ntext",
    "{p}",
    "{p;d}",
    "{ :a e id\n}",
    "# comment",
    "#n",
    "s/x/y/;e id",
    "ba",
    "b;w out.txt",
    ":a\\",
    ": a",
    "s/a/b/;w out.txt",
    "s/a/\\n/",
    "s/a/b/ ; p",
    "y/a/b/;e id",
  ];
  const joiners = [";", "\n", " ; ", "; ", ";;"];
  const scripts: string[] = [];
  for (let index = 0; index < count; index++) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, addresses) + pick(random, commands));
    scripts.push(parts.reduce((joined, part) => joined + pick(random, joiners) + part));
  }
  return scripts;
}

/** `test`, `[` and `[[` expressions: every unary and binary operator with harmless and evaluating operands. */
function testExpressions(random: () => number, places: CorpusPlaces, count: number): string[] {
  const unary = [
    "-e",
    "-f",
    "-d",
    "-r",
    "-w",
    "-x",
    "-s",
    "-L",
    "-h",
    "-n",
    "-z",
    "-v",
    "-R",
    "-o",
    "-t",
    "-b",
    "-c",
    "-p",
    "-S",
    "-g",
    "-u",
    "-k",
    "-O",
    "-G",
    "-N",
    "-a",
  ];
  const binary = ["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "=~"];
  const operands = [
    "a.txt",
    "x",
    "1",
    "'x[$(id)]'",
    '"x[0]"',
    "'$HOME'",
    '"$HOME"',
    "'a[`id`]'",
    "lnk/secret",
    `${places.outside}/secret`,
    "'x[1+1]'",
    "''",
    "'(1)'",
    "PATH",
    "'-v'",
  ];
  const expressions: string[] = [];
  for (let index = 0; index < count; index++) {
    const roll = random();
    let expression: string;
    if (roll < 0.4) expression = `${pick(random, unary)} ${pick(random, operands)}`;
    else if (roll < 0.8) expression = `${pick(random, operands)} ${pick(random, binary)} ${pick(random, operands)}`;
    else
      expression = `! ${pick(random, unary)} ${pick(random, operands)} ${pick(random, ["-a", "-o"])} ${pick(random, operands)} ${pick(random, binary)} ${pick(random, operands)}`;
    const form = pick(random, ["test E", "[ E ]", "[[ E ]]", "[ E", "test E && cat a.txt", "[ E ] || echo no"]);
    expressions.push(form.replace("E", expression));
  }
  return expressions;
}

/** The shapes issue 23 reported and their neighbours, written out. */
function attackShapes(places: CorpusPlaces): string[] {
  const { outside, home } = places;
  return [
    "sed -n ':a e touch pwned' a.txt",
    "sed -n ':a w pwned' a.txt",
    `sed -n ':a w ${home}/.bashrc' a.txt`,
    "sed -n 'b end w pwned' a.txt",
    "sed 't x w pwned' a.txt",
    "sed -n '1e touch pwned' a.txt",
    "sed 's/.*/touch pwned/e' a.txt",
    "sed 's/a/b/w pwned' a.txt",
    "sed -n '$!{N};e touch pwned' a.txt",
    "sed -f script.sed a.txt",
    "sed -i s/a/b/ a.txt",
    "sed --follow-symlinks -i s/a/b/ lnk-file",
    "sed -s -n p a.txt lnk/secret",
    "sed -n 'r lnk/secret' a.txt",
    "sed 'R lnk/secret' a.txt",
    "sed -n '1F' a.txt",
    "sed 'a\\' a.txt",
    "test -v 'x[$(touch pwned)]'",
    "[ -v 'x[$(touch pwned)]' ]",
    "[[ -v 'x[$(touch pwned)]' ]]",
    "test 'x[$(touch pwned)]' -eq 1",
    "[[ 'x[$(touch pwned)]' -eq 1 ]]",
    "test -R 'x[$(touch pwned)]'",
    "printf -v 'x[$(touch pwned)]' 1",
    "printf '%d' 'x[$(touch pwned)]'",
    "let 'x[$(touch pwned)]'",
    "(( x[$(touch pwned)] ))",
    "declare 'x[$(touch pwned)]'=1",
    "read 'x[$(touch pwned)]' < a.txt",
    `cat {${outside}/secret,a.txt}`,
    "cat {lnk/secret,a.txt}",
    "cat lnk/sec*",
    "cat l?k/secret",
    "cat */secret",
    "cat [l]nk/secret",
    "head s*/rel-lnk/*",
    "grep -R secret .",
    "grep -r secret $HOME",
    "grep -r secret ~",
    "grep -Rn . sub",
    "rg --follow secret",
    "rg -L secret .",
    "find -L . -name secret",
    "find . -follow -name secret",
    "ls -L lnk",
    "ls -RL",
    "du -L",
    "tree -l",
    "diff -r src lnk",
    "diff sub src",
    `file -f${home}/.netrc`,
    `file -f ${home}/.netrc`,
    `grep -f${outside}/secret a.txt`,
    `grep --file=${outside}/secret a.txt`,
    `sort --files0-from=files0.bin`,
    "wc --files0-from=files0.bin",
    "du --files0-from=files0.bin",
    "file -f list.txt",
    "md5sum -c sums.txt",
    `jq --rawfile s ${outside}/secret -n '$s'`,
    "jq -n 'input_filename'",
    "jq -f lib.jq data.json",
    `jq -L ${outside} -n 'import "secret" as s; .'`,
    `date -f ${outside}/secret`,
    "date -f lnk/secret",
    `diff --to-file=${outside}/secret a.txt`,
    "ps e",
    "ps auxe",
    "ps eww",
    "tree -o pwned",
    "cat $HOME/.netrc",
    "cat ~/.netrc",
    "cat ~root/.bashrc",
    "cat lnk/../home/secret",
    "cat lnk-file",
    "cat dangling",
    "cat sub/rel-lnk/secret",
    `cat ${outside}/secret`,
    "cat ../outside/secret",
    "ls lnk/",
    "cat < lnk/secret",
    "cat < $HOME/secret",
    "echo x > pwned",
    "echo x >> pwned",
    "cat a.txt | tee pwned",
    "git log --output=pwned",
    "git -c core.fsmonitor='touch pwned' status",
    "git grep -O'touch pwned' alpha",
    "npm view react",
    "sort -o pwned a.txt",
    "sort -opwned a.txt",
    "uniq a.txt pwned",
    "find . -fprint pwned",
    "find . -exec touch pwned \\;",
    "env touch pwned",
    "printenv HOME",
    "cat a.txt; touch pwned",
    "ls && touch pwned",
    "ls | sh",
    "ls `touch pwned`",
    "ls $(touch pwned)",
    "cat <(touch pwned)",
    "echo hi >&pwned",
    "echo hi <> pwned",
    "cat <<< x",
    "cat <<EOF\n$(touch pwned)\nEOF",
    "grep -R src",
    "rg -L src",
    "egrep -R src",
    "du -L -d 1 src",
    "grep -r alpha {-R,.}",
    "ls {-RL,.}",
    "cat [[:alpha:]]nk/secret",
    "cat **/secret",
    "head **/rel-lnk/*",
    "grep alpha *",
    "wc *",
    "jq -n env",
    "test -t 'x[$(touch pwned)]'",
    "printf '%(%s)T' 'x[$(touch pwned)]'",
    "ls\ntouch pwned",
    "ls # x\ntouch pwned",
    "lsof -p 1",
    "lsof +D lnk",
    "rg --pre=touch alpha",
    "rg -z alpha",
    "tail -n1 lnk/secret",
    "head -c 100 /proc/1/environ",
    "cat /proc/self/environ",
  ];
}

function pick<T>(random: () => number, choices: readonly T[]): T {
  return choices[Math.floor(random() * choices.length)]!;
}

/** Ways a word can be written so the shell reads the same text (or not quite). */
function quoteMutation(random: () => number, word: string): string {
  if (word.includes("'") || word.includes('"') || word.includes(" ")) return word;
  switch (Math.floor(random() * 6)) {
    case 0:
      return `'${word}'`;
    case 1:
      return `"${word}"`;
    case 2:
      return word.length > 1 ? `${word.slice(0, 1)}\\${word.slice(1)}` : word;
    case 3:
      return word.length > 2 ? `${word.slice(0, 2)}''${word.slice(2)}` : word;
    default:
      return word;
  }
}

const REDIRECTIONS = [
  "",
  "",
  "",
  " >/dev/null",
  " 2>&1",
  " 2>/dev/null",
  " < a.txt",
  " > pwned",
  " >> pwned",
  " <<< x",
  " &>/dev/null",
  " >&2",
  " < lnk/secret",
  " <<EOF\nalpha\nEOF",
  " >| pwned",
];
const COMPANIONS = [
  "",
  "",
  "",
  "",
  " | head -n 1",
  "; echo done",
  " && wc -l a.txt",
  " || true",
  " | sort",
  " | touch pwned",
  "; cat lnk/secret",
  " | grep -c x",
];

/** The whole corpus, in a fixed order; `seed` picks the random part. */
export function generateCorpus(places: CorpusPlaces, seed = 23): string[] {
  const random = seededRandom(seed);
  const forms = programForms(places);
  const commands: string[] = [];
  for (const [program, { options, operands, operandLists = [] }] of Object.entries(forms)) {
    const defaultOperand = operandLists[0] ?? operands[0] ?? "";
    // Each option alone, each operand alone: every form the program knows is judged at least once.
    for (const option of options) commands.push(joinWords([program, option, defaultOperand]));
    for (const operand of [...operands, ...operandLists]) commands.push(joinWords([program, operand]));
    // Then mutations: several options, quoting, a redirection, a second command.
    const mutations = Math.max(12, 40 - options.length - operands.length);
    for (let index = 0; index < mutations; index++) {
      const chosen = Array.from({ length: Math.floor(random() * 3) }, () => pick(random, options.length > 0 ? options : [""]));
      const operand =
        operandLists.length > 0 && random() < 0.5 ? pick(random, operandLists) : operands.length > 0 ? pick(random, operands) : "";
      // Fragments with quotes stay whole; the others split into words that may be quoted anew.
      const words = [program, ...chosen, operand]
        .filter((fragment) => fragment !== "")
        .flatMap((fragment) => (/['"\\\n]/.test(fragment) ? [fragment] : fragment.split(" ")));
      commands.push(
        joinWords(words.map((word, position) => (position === 0 || random() < 0.7 ? word : quoteMutation(random, word)))) +
          pick(random, REDIRECTIONS) +
          pick(random, COMPANIONS),
      );
    }
  }
  for (const script of sedScripts(random, places, 320)) {
    const quoted = `'${script.replaceAll("'", "'\\''")}'`;
    commands.push(
      `sed ${pick(random, ["-n ", "", "-E ", "-n -e ", "-s -n "])}${quoted} ${pick(random, ["a.txt", "a.txt b.txt", "lnk/secret", ""])}`.trimEnd(),
    );
  }
  commands.push(...testExpressions(random, places, 200));
  commands.push(...attackShapes(places));
  return [...new Set(commands)];
}

function joinWords(words: readonly string[]): string {
  return words.filter((word) => word !== "").join(" ");
}

/** The programs the corpus generates commands for, to compare with the allowlist. */
export function corpusPrograms(places: CorpusPlaces): string[] {
  return Object.keys(programForms(places));
}
