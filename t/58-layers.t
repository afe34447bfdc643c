#!/usr/bin/perl
# harness/check-layers.pl: the kernel files import only downward.  First
# its verdict on this repository's kernel files, each of its results a
# test of a subtest; then, to show that it can fail, small made-up trees
# (nothing of the real files): a clean one (a.h at layer 0, b.h including
# it at layer 1, the top and the public header) that must pass, and the
# same with one violation each, which must fail with a result naming it.
use strict;
use warnings;
use Test::More;
use File::Path qw(make_path);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run put);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $check = "$top/harness/check-layers.pl";

# The checker on TREE: (exit code, [ok, description] of each result,
# the whole output).
sub check {
	my ($tree) = @_;
	my ($rc, $out, $err) = run("perl $check $tree");
	my @r = map { /^(not ok|ok) \d+ - (.*)$/ ? [$1 eq 'ok', $2] : () } split /\n/, $out;
	my ($plan) = $out =~ /^1\.\.(\d+)$/m;
	return ($rc, \@r, $out . $err, ($plan // -1) == @r);
}

subtest 'the kernel files import only downward (harness/check-layers.pl on this tree)' => sub {
	my ($rc, $r, $out, $whole) = check($top);
	ok($whole && $rc <= 1, "the checker ran to its end (exit $rc)");
	ok($_->[0], $_->[1]) for @$r;
	note($_) for grep { /^#/ } split /\n/, $out;
};

my $pub = "#ifndef _LINUX_MT_H\n#define _LINUX_MT_H\nvoid mt_trace_mark(unsigned long mark);\n#endif\n";
my %clean = (
	'include/linux/migrate_trace_lite.h' => $pub,
	'kernel/migrate_trace_lite_a.h' => <<'EOF',
#ifndef _MT_A_H
#define _MT_A_H
#include <linux/migrate_trace_lite.h>
#define MT_A_MAX 4
extern unsigned int mt_a_count;
int mt_a_get(void);
#endif
EOF
	'kernel/migrate_trace_lite_a.c' => <<'EOF',
#include "migrate_trace_lite_a.h"
unsigned int mt_a_count;
int mt_a_get(void)
{
	return mt_a_count + MT_A_MAX;	/* not mt_b_sum() */
}
EOF
	'kernel/migrate_trace_lite_b.h' => <<'EOF',
#ifndef _MT_B_H
#define _MT_B_H
#include "migrate_trace_lite_a.h"
enum { MT_B_ONE, MT_B_TWO };
struct mt_b {
	int n;
};
int mt_b_sum(struct mt_b *b);
#endif
EOF
	'kernel/migrate_trace_lite_b.c' => <<'EOF',
#include "migrate_trace_lite_b.h"
#include "migrate_trace_lite_a.h"
int mt_b_sum(struct mt_b *b)
{
	return b->n + mt_a_get() + MT_B_TWO;
}
EOF
	'kernel/migrate_trace_lite.h' => <<'EOF',
#ifndef _MT_TOP_H
#define _MT_TOP_H
#include "migrate_trace_lite_b.h"
void mt_top_hook(void);
#endif
EOF
	'kernel/migrate_trace_lite.c' => <<'EOF',
#include <linux/migrate_trace_lite.h>
#include "migrate_trace_lite.h"
static struct mt_b mt_top_b;
void mt_trace_mark(unsigned long mark)
{
	mt_b_sum(&mt_top_b);
}
static int __init mt_init(void)
{
	return mt_a_get();
}
late_initcall(mt_init);
EOF
);

# The clean tree with CHANGES (FILE => sub changing its text) in the
# directory NAME: the checker's (exit code, results, output).
my $n = 0;
sub tree {
	my (%changes) = @_;
	my $t = tmpdir() . '/tree' . $n++;
	for my $f (keys %clean) {
		local $_ = $clean{$f};
		$changes{$f}->() if $changes{$f};
		make_path(dirname("$t/$f"));
		put("$t/$f", $_);
	}
	return check($t);
}

{
	my ($rc, $r, $out, $whole) = tree();
	ok($rc == 0 && $whole && !grep({ !$_->[0] } @$r), 'the clean made-up tree passes') or diag($out);
	like($out, qr/^#\s+0 kernel\/migrate_trace_lite_a\.h\n#\s+1 kernel\/migrate_trace_lite_b\.h: migrate_trace_lite_a\.h\n#\s+2 kernel\/migrate_trace_lite\.h: migrate_trace_lite_b\.h$/m,
	     'and its layers are a.h 0, b.h 1, the top\'s 2');
}

# Each violation, the change that makes it, and the failed result that
# must name it.
my @bad = (
	['a.c includes b.h (upward include)',
	 {'kernel/migrate_trace_lite_a.c' => sub { s/^/#include "migrate_trace_lite_b.h"\n/ }},
	 qr/migrate_trace_lite_a\.c \(layer 0\) includes only .*: kernel\/migrate_trace_lite_b\.h \(layer 1\) from a higher/],
	['a.c calls mt_b_sum() of b.h without including it (use without include)',
	 {'kernel/migrate_trace_lite_a.c' => sub { s@/\* not (mt_b_sum)\(\) \*/@+ $1(0)@ }},
	 qr/migrate_trace_lite_a\.c \(layer 0\) uses only names .*: mt_b_sum \(kernel\/migrate_trace_lite_b\.h, layer 1\)/],
	['a.h includes b.h, which includes a.h (cycle)',
	 {'kernel/migrate_trace_lite_a.h' => sub { s/^(#include <)/#include "migrate_trace_lite_b.h"\n$1/m }},
	 qr/migrate_trace_lite_a\.h is on no include cycle: kernel\/migrate_trace_lite_a\.h -> kernel\/migrate_trace_lite_b\.h -> kernel\/migrate_trace_lite_a\.h/],
	['an extern in b.c',
	 {'kernel/migrate_trace_lite_b.c' => sub { s/^(int mt_b_sum)/extern int mt_top_secret;\n$1/m }},
	 qr/migrate_trace_lite_b\.c declares no extern .*: extern mt_top_secret/],
	['a non-static prototype in a.c',
	 {'kernel/migrate_trace_lite_a.c' => sub { s/^(unsigned)/int mt_b_sum(void *b);\n$1/m }},
	 qr/migrate_trace_lite_a\.c declares no extern and no non-static prototype: proto mt_b_sum/],
	['a.h uses struct mt_b of b.h',
	 {'kernel/migrate_trace_lite_a.h' => sub { s/^(int mt_a_get)/struct mt_b *mt_a_b(void);\n$1/m }},
	 qr/migrate_trace_lite_a\.h \(layer 0\) uses only names .*: mt_b \(kernel\/migrate_trace_lite_b\.h, layer 1\)/],
	['b.c does not include its own header',
	 {'kernel/migrate_trace_lite_b.c' => sub { s/^#include "migrate_trace_lite_b.h"\n//m }},
	 qr/migrate_trace_lite_b\.c includes its own header/],
	['b.h includes the top\'s header',
	 {'kernel/migrate_trace_lite_b.h' => sub { s/^(#include "migrate_trace_lite_a.h")/$1\n#include "migrate_trace_lite.h"/m }},
	 qr/migrate_trace_lite_b\.h does not include kernel\/migrate_trace_lite\.h, the top's/],
);
for my $case (@bad) {
	my ($what, $changes, $re) = @$case;
	my ($rc, $r, $out, $whole) = tree(%$changes);
	ok($rc == 1 && $whole && grep({ !$_->[0] && $_->[1] =~ $re } @$r), "fails on: $what") or diag($out);
}
done_testing();
