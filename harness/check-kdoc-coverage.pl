#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Every non-static function of the kernel files has kernel-doc: a /**
# comment right above its definition that names it.  Test files are
# exempt.  Prints one line per function that lacks it; exits 1 if any.
#
#   check-kdoc-coverage.pl FILE...
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
die "$P: usage: $P FILE...\n" unless @ARGV;
my $missing = 0;
for my $f (@ARGV) {
	open(my $fh, '<', $f) or die "$P: $f: $!\n";
	my @l = <$fh>;
	close($fh);
	for my $i (0 .. $#l) {
		# A definition at column 0: "type name(" on a line that is not
		# static, a declaration or a macro, and an opening brace below.
		next unless $l[$i] =~ /^(?!static\b|extern\b|#|\s|\/|\*|\}|typedef\b)(?:[\w\s\*]+?)\b(\w+)\(/;
		my $name = $1;
		next if $name =~ /^(?:EXPORT_SYMBOL\w*|DEFINE_\w+|DECLARE_\w+|late_initcall|__setup|module_\w+|core_param|static_assert|kunit_test\w*)$/;
		my $j = $i;
		$j++ while $j <= $#l && $l[$j] !~ /[;{]/;
		next unless $j <= $#l && $l[$j] =~ /\{/ && $l[$j] !~ /;/;
		# The comment above: back over the prototype's previous lines.
		my $k = $i - 1;
		my $doc = $k >= 0 && $l[$k] =~ m@^ \*/@;
		if ($doc) {
			$k-- while $k > 0 && $l[$k] !~ m@^/\*@;
			$doc = $l[$k] =~ m@^/\*\*@ && $l[$k + 1] =~ /^ \* \Q$name\E\(\)/;
		}
		next if $doc;
		print "$f:" . ($i + 1) . ": $name() has no kernel-doc\n";
		$missing++;
	}
}
exit($missing ? 1 : 0);
