#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# With both options off, the series must leave the kernel's machine code
# as it was: each object of the "off" build (the patched tree, neither
# facility) against the same object of the "pristine" build (Debian's
# tree unpatched, the same configuration), function by function,
# instruction by instruction.  Addresses are dropped (a function may sit
# elsewhere in its section); branch targets inside a function, called
# symbols and relocations are kept, so an added, removed or changed
# instruction, a field that moves a member's offset or a store that is
# left behind shows.  Prints TAP; exit 1 on any difference.
#
#   check-pristine.pl [-v] OFF-DIR PRISTINE-DIR OBJECT...
#
# OBJECT is a path relative to both, e.g. kernel/sched/core.o.  -v lists
# the first differing instructions of each function.
use strict;
use warnings;
use Getopt::Long;

my $P = $0 =~ s@.*/@@gr;
my $verbose = 0;
GetOptions('v|verbose' => \$verbose)
	or die "$P: usage: $P [-v] OFF-DIR PRISTINE-DIR OBJECT...\n";
my ($off_dir, $pristine_dir, @objects) = @ARGV;
die "$P: usage: $P [-v] OFF-DIR PRISTINE-DIR OBJECT...\n" unless @objects;

# The functions of an object: name => [normalized instructions].
sub functions {
	my ($path) = @_;
	my (%fn, $cur);

	die "$P: $path: no such object\n" unless -f $path;
	my @lines = `objdump -drw --no-show-raw-insn '$path'`;
	die "$P: objdump $path failed\n" if $?;
	for (@lines) {
		chomp;
		if (/^[0-9a-f]+ <(\S+)>:$/) {
			$cur = $fn{$1} = [];
			next;
		}
		next unless $cur && /^\s*[0-9a-f]+:\t(.*)$/;
		my $insn = $1;
		# The address of a branch target: its symbol and offset say it.
		$insn =~ s/\b[0-9a-f]+ (<[^>]+>)/$1/g;
		# A relocation's place: the instruction it is on says it.
		$insn =~ s/\t[0-9a-f]+: (R_)/\t$1/g;
		$insn =~ s/\s+#.*$//;
		push @$cur, $insn;
	}
	return \%fn;
}

my ($n, $failed) = (0, 0);
print '1..', scalar(@objects), "\n";
for my $obj (@objects) {
	my $off = functions("$off_dir/$obj");
	my $pristine = functions("$pristine_dir/$obj");
	my @diff;
	for my $name (sort keys %{{ %$off, %$pristine }}) {
		my ($a, $b) = ($off->{$name}, $pristine->{$name});
		if (!$a || !$b) {
			push @diff, "$name: only in the " . ($a ? 'off' : 'pristine') . ' build';
			next;
		}
		my $i = 0;
		$i++ while $i < @$a && $i < @$b && $a->[$i] eq $b->[$i];
		next if $i == @$a && $i == @$b;
		push @diff, sprintf('%s: %d against %d instructions, first difference at %d',
				    $name, scalar(@$a), scalar(@$b), $i);
		push @diff, "  off:      " . ($a->[$i] // '(end)'),
			    "  pristine: " . ($b->[$i] // '(end)') if $verbose;
	}
	$n++;
	if (@diff) {
		$failed++;
		print "not ok $n - $obj: the off build differs from the pristine tree's\n";
		print "# $_\n" for @diff;
	} else {
		print "ok $n - $obj: the off build is instruction-identical to the pristine tree's (",
			scalar(keys %$off), " functions)\n";
	}
}
exit($failed ? 1 : 0);
