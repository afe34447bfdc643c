#!/usr/bin/perl
# t/01, t/03 and t/08 run a checker of the harness that prints TAP, and
# pass on its results.  Here each runs, unchanged, in a tree whose checker
# is a stand-in: one that dies before its plan, one that dies half way
# through its results, and one that runs to its end.  The first two must
# make the test fail (prove's parser finds a failure, whatever the TAP
# printed so far says), the last must let it pass.  No kernel tree is
# needed: the stand-ins answer for build/linux and build/pristine.
use strict;
use warnings;
use Test::More;
use TAP::Parser;
use File::Path qw(make_path);
use File::Copy qw(copy);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $dir = tmpdir();

# The checker each test runs, and the line of the pristine tree's result
# that the test counts.
my %tests = ('t/01-cause-coverage.t' => ['check-causes.pl', 'has no hook'],
	     't/08-reason-coverage.t' => ['check-reasons.pl', 'without noting a reason'],
	     't/03-deps.t' => ['check-deps.pl', undef]);

# The stand-in's perl code for the patched tree (and for check-deps.pl);
# on the pristine tree it flags 12 places, as the real checkers do.
my %behaviour = (
	'dies before its plan' => 'die "cannot read the tree\n";',
	'dies half way' => 'print "1..3\nok 1 - one\nok 2 - two\n"; die "cannot read the rest\n";',
	'runs to its end' => 'print "1..3\nok 1 - one\nok 2 - two\nok 3 - three\n";',
);

# A tree with the tests, t/lib.sh and the stand-in checkers.
sub tree {
	my ($name, $code, $mark) = @_;
	my $t = "$dir/" . ($name =~ s/\W+/_/gr);
	make_path("$t/t", "$t/harness");
	copy("$top/t/lib.sh", "$t/t/lib.sh") or die;
	for my $test (keys %tests) {
		copy("$top/$test", "$t/$test") or die;
		my ($checker, $flag) = @{$tests{$test}};
		open(my $fh, '>', "$t/harness/$checker") or die;
		print $fh "use strict;\n";
		print $fh "if (\$ARGV[0] =~ /pristine\$/) { print \"1..12\\n\"; " .
			"print \"not ok \$_ - place \$_ $flag\\n\" for 1 .. 12; exit 0 }\n" if defined $flag;
		print $fh "$code\n";
		close($fh);
	}
	# harness/deps.sh --check, for t/03: every command is installed.
	open(my $fh, '>', "$t/harness/deps.sh") or die;
	print $fh "#!/bin/sh\nexit 0\n";
	close($fh);
	chmod(0755, "$t/harness/deps.sh");
	return $t;
}

# Whether prove would pass TEST run in TREE, and its TAP.
sub passes {
	my ($tree, $test) = @_;
	local $ENV{MT_TOP} = $tree;
	my $p = TAP::Parser->new({ exec => ['bash', "$tree/$test"] });
	my $tap = '';
	while (my $r = $p->next) {
		$tap .= $r->as_string . "\n";
	}
	return (!$p->has_problems, $tap);
}

for my $b (sort keys %behaviour) {
	my $tree = tree($b, $behaviour{$b});
	for my $test (sort keys %tests) {
		my ($ok, $tap) = passes($tree, $test);
		my $want = $b eq 'runs to its end';
		ok($want ? $ok : !$ok, "$test " . ($want ? 'passes' : 'fails') . " when its checker $b")
			or diag($tap);
	}
}
done_testing();
