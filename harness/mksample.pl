#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# make sample: the sample trace and stat that the README's commands run
# on (doc/sample/), cut from a make run guest's out/run/trace and
# out/run/stat, never written by hand.  The trace keeps its header and
# its events of the first SECONDS (fewer when the cut would pass
# MAX_KIB); the stat its header and the periods that end by then.  Each
# line is read by the rules every tool uses (MigrateTrace::Format,
# MigrateTrace::Stat) and copied unchanged; a '# sample' line at the end
# of each header says what the file is (readers skip tags they do not
# know).  Both outputs are read back by the same rules before they
# replace the old ones.
#
#   mksample.pl [--seconds S] [--max_kib K] TRACE STAT OUTDIR
use strict;
use warnings;
no warnings 'portable';		# 64-bit hex timestamps
use Getopt::Long;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
use lib abs_path(dirname($0) . '/../scripts');
use MigrateTrace::Format qw(new_header header_line header_done event_of);
use MigrateTrace::Stat qw(read_stat);

my $P = $0;
$P =~ s@.*/@@g;

sub help {
	my ($exitcode) = @_;
	print << "EOM";
Usage: $P [OPTIONS] TRACE STAT OUTDIR

Write OUTDIR/trace and OUTDIR/stat: the first seconds of a make run
guest's TRACE and STAT (out/run/trace and out/run/stat), each line
copied as it is, with a '# sample' header line that says what it is.

Options:
  --seconds S      the span to keep, from the trace's first event
                   (default 3)
  --max_kib K      keep the trace under K KiB, ending it earlier if need
                   be (default 256)
  --help
EOM
	exit($exitcode);
}

my %o = (seconds => 3, max_kib => 256);
GetOptions('seconds=f' => \$o{seconds}, 'max_kib=i' => \$o{max_kib}, 'help|h' => \$o{help})
	or die "$P: bad option; see $P --help\n";
help(0) if $o{help};
die "$P: give TRACE, STAT and OUTDIR; see $P --help\n" unless @ARGV == 3;
my ($in_trace, $in_stat, $outdir) = @ARGV;
for ($in_trace, $in_stat) {
	die "$P: $_: no such file: make run writes out/run/trace and out/run/stat first\n" unless -f $_;
}
die "$P: --seconds wants a span from 0.1 to 60\n" unless $o{seconds} >= 0.1 && $o{seconds} <= 60;
-d $outdir or mkdir($outdir) or die "$P: $outdir: $!\n";

# ---- the trace ---------------------------------------------------------------------

my (@hdr, @body, $first, $last);
{
	open(my $fh, '<', $in_trace) or die "$P: $in_trace: $!\n";
	my $h = new_header({});
	my $bad = sub { die "$P: $in_trace:$.: $_[0]\n" };
	my $size = 0;
	my $limit = $o{max_kib} * 1024 - 512;
	while (my $line = <$fh>) {
		if ($line =~ /^#/ && !@body && !defined $first) {
			header_line($h, $line, $bad);
			push @hdr, $line;
			$size += length($line);
			next;
		}
		header_done($h, $bad) unless defined $first;
		my $e = event_of($h, $line, $bad);
		$first //= $e->{ts};
		last if $e->{ts} >= $first + $o{seconds} * 1e9 || $size + length($line) > $limit;
		push @body, $line;
		$size += length($line);
		$last = $e->{ts};
	}
	close($fh);
	die "$P: $in_trace: no event\n" unless @body;
}
my $span = ($last - $first) / 1e9;
my $migs = grep { !/^\S+ \d+ \. / } @body;
# The inputs' names from out/ on (out/run/trace), or their last part.
my ($base, $sbase) = map { m@(?:^|/)(out/.*)@ ? $1 : s@.*/@@r } $in_trace, $in_stat;
push @hdr, sprintf("# sample migrate_trace_lite's sample trace: the first %.3f s of a make run guest's %s " .
		   "(%d events, %d migrations), cut by make sample (harness/mksample.pl); lines as the kernel " .
		   "wrote them\n", $span, $base, scalar(@body), $migs);

# ---- the stat ------------------------------------------------------------------------

# The periods that end by the trace's last kept event; without a
# '# sched_clock' line, those of the first seconds.
my $st = read_stat($in_stat, 1);
my $end = defined $st->{sched_clock} ? ($last - hex($st->{sched_clock})) / 1e9 : $span;
my (@shdr, @rows);
{
	open(my $fh, '<', $in_stat) or die "$P: $in_stat: $!\n";
	while (my $line = <$fh>) {
		if ($line =~ /^#/ || $line !~ /\S/) {
			push @shdr, $line unless @rows;
			next;
		}
		my ($ts) = $line =~ /^(\d+\.\d+)\s/ or die "$P: $in_stat:$.: bad row\n";
		last if $ts + $st->{period_msec} / 1000 > $end + 1e-9;
		push @rows, $line;
	}
	close($fh);
}
die "$P: $in_stat: no period ends within the trace's first ${\ sprintf('%.3f', $span)} s\n" unless @rows;
push @shdr, sprintf("# sample migrate_trace_lite's sample stat: the first %d periods of %d ms of a make run " .
		    "guest's %s, those that end by the sample trace's last event; cut by make sample " .
		    "(harness/mksample.pl)\n", scalar(@rows), $st->{period_msec}, $sbase);

# ---- written, read back, put in place --------------------------------------------------

for my $f (['trace', [@hdr, @body]], ['stat', [@shdr, @rows]]) {
	my ($name, $lines) = @$f;
	my $tmp = "$outdir/.$name.tmp.$$";
	open(my $fh, '>', $tmp) or die "$P: $tmp: $!\n";
	print $fh @$lines or die "$P: $tmp: $!\n";
	close($fh) or die "$P: $tmp: $!\n";
	if ($name eq 'trace') {
		my $h = new_header({});
		my $bad = sub { unlink($tmp); die "$P: $tmp:$.: $_[0] (the cut is not a valid trace)\n" };
		open($fh, '<', $tmp) or die "$P: $tmp: $!\n";
		my $body;
		while (my $line = <$fh>) {
			if (!$body && $line =~ /^#/) {
				header_line($h, $line, $bad);
				next;
			}
			header_done($h, $bad) unless $body++;
			event_of($h, $line, $bad);
		}
		close($fh);
	} else {
		my $back = read_stat($tmp, 0);
		die "$P: $tmp: $back->{periods} periods read back, not " . scalar(@rows) . "\n"
			unless $back->{periods} == @rows;
	}
	rename($tmp, "$outdir/$name") or die "$P: $outdir/$name: $!\n";
	printf("%s: %d lines, %.1f KiB\n", "$outdir/$name", scalar(@$lines), (-s "$outdir/$name") / 1024);
}
exit(0);
