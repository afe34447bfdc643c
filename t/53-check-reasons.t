#!/usr/bin/perl
# harness/check-reasons.pl's "every reason is produced somewhere" (t/08)
# can fail.  Its tree here is made of this repository's own code, no
# kernel tree needed: the hooks (kernel/migrate_trace_lite.c), the header
# with enum mt_reason, and for each scheduler file the lines our patch
# adds to it.  With all of it every reason of the enum is produced; then,
# one reason at a time, the code that produces it is taken out (each use
# of its name becomes MT_REASON_NONE; the enum, the table of names, the
# comparisons and case labels that only read it kept), and the check must
# say that reason is not produced.
use strict;
use warnings;
use Test::More;
use File::Path qw(make_path);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $dir = tmpdir();

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$f: $!\n";
	local $/;
	return scalar <$fh>;
}

my %files = ('kernel/migrate_trace_lite.c' => slurp("$top/kernel/migrate_trace_lite.c"),
	     'include/linux/migrate_trace_lite.h' => slurp("$top/include/linux/migrate_trace_lite.h"));
for my $f (qw(fair rt deadline core)) {
	$files{"kernel/sched/$f.c"} = join('', map { s/^\+//r } grep { /^\+/ && !/^\+\+\+ / }
					   split /^/, slurp("$top/kernel/sched/$f.c.patch"));
}
my ($enum) = $files{'include/linux/migrate_trace_lite.h'} =~ /enum mt_reason \{(.*?)\};/s;
# Its list, MT_REASONS, which the enum, the names and the event
# are made from; the load balancer's reasons come from MT_REASON_LB_FIRST.
my ($list) = $files{'include/linux/migrate_trace_lite.h'} =~ /^#define MT_REASONS MT_LIST\(((?:.*\\\n)*.*)/m;
# Retired reasons (the list line says so) are produced nowhere: the
# check's other verdict covers them.
my %retired = map { $_ => 1 } $list =~ /^\s*MT_EM\((MT_REASON_\w+),[^)]*\),?\s*\/\*\s*retired\b/mg;
my @reasons = grep { !/^MT_REASON_(NONE|END|LB_LAST)$/ && !$retired{$_} }
	($enum =~ /^\s*(MT_REASON_\w+)/mg), grep { !/^MT_REASON_LB_/ } $list =~ /^\s*MT_EM\((MT_REASON_\w+),/mg;
ok(@reasons >= 20, scalar(@reasons) . ' reasons in enum mt_reason');

# The check's verdict on each reason, for the files with REASON's
# producing code taken out (none: all of it).
sub verdicts {
	my ($reason) = @_;
	my $t = "$dir/tree";
	for my $f (keys %files) {
		my $text = $files{$f};
		if (defined $reason) {
			# Keep the enum and its list: cut the text around them.
			my @parts = split /(enum mt_reason \{.*?\};|^#define MT_REASONS MT_LIST\((?:[^\n]*\\\n)*[^\n]*)/ms, $text;
			# A comparison, a case label or a name's slot reads the
			# reason: they stay.
			s/(==\s*|!=\s*|case\s+|\[)?\b$reason\b(\s*[=!]=|\])?/defined $1 || defined $2 ? $& : 'MT_REASON_NONE'/ge
				for @parts[grep { $_ % 2 == 0 } 0 .. $#parts];
			$text = join('', @parts);
		}
		make_path(dirname("$t/$f"));
		open(my $fh, '>', "$t/$f") or die;
		print $fh $text;
		close($fh);
	}
	my ($rc, $out, $err) = run("perl $top/harness/check-reasons.pl $t $top/harness/reason-exclusions");
	return map { /^(not ok|ok) \d+ - (?:retired )?reason (\w+) is (?:noted or inferred|produced nowhere)$/ ?
		     ($2 => $1) : () } split /\n/, $out;
}

my %all = verdicts(undef);
is(join(' ', grep { ($all{$_} // '') ne 'ok' } @reasons), '', 'with all the code, every reason is produced');
is(join(' ', grep { ($all{$_} // '') ne 'ok' } sort keys %retired), '',
   'and no retired one (' . scalar(keys %retired) . ')');
# A retired reason that some code produces again is flagged.
{
	local $files{'kernel/migrate_trace_lite.c'} = $files{'kernel/migrate_trace_lite.c'} .
		join('', map { "static unsigned int mt_again_$_ = $_;\n" } sort keys %retired);
	my %v = verdicts(undef);
	is(join(' ', grep { ($v{$_} // '') ne 'not ok' } sort keys %retired), '',
	   'a retired reason produced again is flagged');
}
my @missed;
for my $r (@reasons) {
	my %v = verdicts($r);
	push @missed, $r unless ($v{$r} // '') eq 'not ok';
}
is(join(' ', @missed), '', 'each reason, its producing code taken out, is flagged as not produced (' .
   scalar(@reasons) . ' reasons)');
done_testing();
