#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Every external command our scripts call is provided: on the host by a
# package of harness/deps.txt, in the guest by the busybox we boot (or by
# one of our guest programs, or by a package of the "#guest" line of
# deps.txt, which the bench initramfs carries).  The scripts are read as a shell would read
# them, roughly: the first word of each command (after pipes, lists,
# command substitutions, keywords, assignments and wrappers such as
# timeout or xargs) is a command; quoted programs (awk, perl -e) are not.
# Perl files are searched for system(), exec(), backticks, qx and piped
# opens.  Prints TAP: one line per file.
#
#   check-deps.pl TOP BUSYBOX-APPLETS-FILE
use strict;
use warnings;

my $P = $0;
$P =~ s@.*/@@g;
my ($top, $applets_file) = @ARGV;
die "$P: usage: $P TOP BUSYBOX-APPLETS-FILE\n" unless defined $applets_file;

my %builtin = map { $_ => 1 } qw(
	. : [ [[ alias bg break builtin cd command continue declare echo eval
	exec exit export false fg getopts hash jobs kill let local mapfile
	popd printf pushd pwd read readarray readonly return set shift shopt
	source test times trap true type typeset ulimit umask unalias unset
	wait);
# Keywords: the next word is again in command position.
my %keyword = map { $_ => 1 } qw(case esac do done elif else fi function if
				  in select then until while time coproc ! { });
# Wrappers whose first non-option argument is itself a command.
my %wrapper = map { $_ => 1 } qw(command exec env nohup time timeout xargs nice chroot
				  setsid taskset);

my %host_ok;	# command => package
my %guest_pkg;	# the packages copied into the bench initramfs ("#guest")
open(my $fh, '<', "$top/harness/deps.txt") or die "$P: harness/deps.txt: $!\n";
while (<$fh>) {
	$guest_pkg{$_} = 1 for /^#guest\s+(.*)/ ? split(' ', $1) : ();
	next if /^\s*(#|$)/;
	my ($pkg, @cmds) = split;
	$host_ok{$_} = $pkg for grep { $_ ne '-' } @cmds;
}
close($fh);
$host_ok{basename($_)} //= $host_ok{$_} for grep { m@^/@ } keys %host_ok;

my %guest_ok;
open($fh, '<', $applets_file) or die "$P: $applets_file: $!\n";
chomp(my @applets = <$fh>);
close($fh);
die "$P: $applets_file lists no applet\n" unless @applets;
$guest_ok{$_} = 'busybox' for @applets, 'busybox';
$guest_ok{$_} = $host_ok{$_} for grep { $guest_pkg{$host_ok{$_}} } keys %host_ok;

sub basename { my ($f) = @_; $f =~ s@.*/@@; return $f; }

sub slurp {
	my ($f) = @_;
	open(my $h, '<', $f) or die "$P: $f: $!\n";
	local $/;
	return scalar <$h>;
}

# The command words of shell source TEXT, and the functions it defines.
sub shell_commands {
	my ($text) = @_;
	my (%cmds, %funcs);

	# Here-documents are data.
	$text =~ s/<<-?\s*['"]?(\w+)['"]?([^\n]*\n)(.*?)^\s*\1\s*$/<<$1$2/msg;
	$funcs{$1} = 1 while $text =~ /^\s*(?:function\s+)?([\w-]+)\s*\(\)/mg;

	my @toks;	# words and operators, quotes and comments removed
	my $i = 0;
	my $len = length($text);
	my $word = '';
	my $quoted = 0;
	my $flush = sub {
		push @toks, [$word, $quoted] if length($word) || $quoted;
		($word, $quoted) = ('', 0);
	};
	while ($i < $len) {
		my $c = substr($text, $i, 1);
		if ($c eq "'") {
			my $e = index($text, "'", $i + 1);
			$e = $len if $e < 0;
			$word .= "'Q'";
			$quoted = 1;
			$i = $e + 1;
		} elsif ($c eq '"') {
			# Keep the command substitutions of a double-quoted string.
			my $j = $i + 1;
			while ($j < $len && substr($text, $j, 1) ne '"') {
				$j++ if substr($text, $j, 1) eq '\\';
				if (substr($text, $j, 2) eq '$(' && substr($text, $j, 3) ne '$((') {
					my ($depth, $k) = (1, $j + 2);
					while ($k < $len && $depth) {
						my $d = substr($text, $k, 1);
						$depth++ if $d eq '(';
						$depth-- if $d eq ')';
						$k++;
					}
					my %sub = shell_commands(substr($text, $j + 2, $k - $j - 3));
					$cmds{$_} //= $sub{$_} for keys %sub;
					$j = $k;
					next;
				}
				$j++;
			}
			$word .= '"Q"';
			$quoted = 1;
			$i = $j + 1;
		} elsif ($c eq '\\') {
			$word .= substr($text, $i + 1, 1) unless substr($text, $i + 1, 1) eq "\n";
			$i += 2;
		} elsif ($c eq '#' && $word eq '' && !$quoted) {
			my $e = index($text, "\n", $i);
			$i = $e < 0 ? $len : $e;
		} elsif (substr($text, $i, 3) eq '$((') {
			my ($depth, $k) = (2, $i + 3);
			while ($k < $len && $depth) {
				my $d = substr($text, $k, 1);
				$depth++ if $d eq '(';
				$depth-- if $d eq ')';
				$k++;
			}
			$word .= '$N';
			$i = $k;
		} elsif (substr($text, $i, 2) eq '$(') {
			$flush->();
			push @toks, ['$(', 0, 'op'];
			$i += 2;
		} elsif (substr($text, $i, 2) eq '${') {
			my $e = index($text, '}', $i);
			$e = $len - 1 if $e < 0;
			$word .= substr($text, $i, $e - $i + 1);
			$i = $e + 1;
		} elsif ($c =~ /[ \t]/) {
			$flush->();
			$i++;
		} elsif ($c =~ /[\n;&|()`]/) {
			$flush->();
			my $op = $c;
			$op = ';;' if substr($text, $i, 2) eq ';;';
			push @toks, [$op, 0, 'op'];
			$i += length($op);
		} elsif ($c =~ /[<>]/ && $word =~ /^\d*$/) {
			# A redirection: the operator and its target are no command.
			$word = '';
			my $j = $i;
			$j++ while $j < $len && substr($text, $j, 1) =~ /[<>&]/;
			$j++ while $j < $len && substr($text, $j, 1) =~ /[ \t]/;
			$j++ while $j < $len && substr($text, $j, 1) =~ /[^ \t\n;|&)]/;
			$i = $j;
		} else {
			$word .= $c;
			$i++;
		}
	}
	$flush->();

	my $at_cmd = 1;
	my ($in_case, $skip_to_do, $in_test) = (0, 0, 0);
	my $wrapped = 0;
	for my $t (@toks) {
		my ($w, $q, $op) = @$t;
		if ($op) {
			if ($w eq ';;') {
				$in_case = 1;
			} elsif ($w eq ')' && $in_case) {
				$in_case = 0;
			}
			$skip_to_do = 0 if $w eq "\n" || $w eq ';';
			$in_test = 0 if $w ne '(' && $w ne ')';
			$at_cmd = 1 unless $w eq ')';
			$wrapped = 0;
			next;
		}
		next if $in_case || $skip_to_do || $in_test;
		next unless $at_cmd;
		if ($w =~ /^[A-Za-z_]\w*(\[[^]]*\])?\+?=/ && !$q) {
			next;		# an assignment; the command follows
		}
		if ($w eq 'case') {
			$in_case = 2;	# the word, then "in"
			next;
		}
		if ($in_case == 2) {
			$in_case = 1 if $w eq 'in';
			next;
		}
		if ($w eq 'for' || $w eq 'select') {
			$skip_to_do = 1;
			$at_cmd = 0;
			next;
		}
		if ($w eq '[' || $w eq '[[' || $w eq 'test') {
			$in_test = 1;
			next;
		}
		if ($keyword{$w}) {
			next;		# keywords keep the command position
		}
		if ($wrapper{$w}) {
			$cmds{$w} = 1 unless $builtin{$w};
			$wrapped = 1;
			next;
		}
		if ($wrapped && ($w =~ /^-/ || $w =~ /^[\d.]+[smhd]?$/ || $w =~ /^[\d,-]+$/ ||
				 $w =~ /^(0x)?[[:xdigit:]]+$/)) {
			next;		# options, durations, CPU lists and masks of a wrapper
		}
		$at_cmd = 0;
		$wrapped = 0;
		next if $q || $w =~ m@[/\$]@ || $w eq '' || $funcs{$w};
		$cmds{$w} = 1 if $w =~ /^[A-Za-z][\w.+-]*$/;
	}
	return %cmds, map { ("fn:$_" => 1) } keys %funcs;
}

# Commands run by a perl program.
sub perl_commands {
	my ($text) = @_;
	my %cmds;
	my @strings;
	$text =~ s/^\s*#.*$//mg;
	push @strings, $1 while $text =~ /`([^`]*)`/g;
	push @strings, $1 while $text =~ /\bqx\s*[({\[]([^)}\]]*)[)}\]]/g;
	while ($text =~ /\b(?:system|exec)\s*\(?\s*(?:qw\s*\(\s*(\S+)|['"]([^'"]+)['"])/g) {
		push @strings, $1 // $2;
	}
	push @strings, $1 while $text =~ /\bopen\s*\(?[^;]*?,\s*['"]-\|['"]\s*,\s*['"]?([^'",)]+)/g;
	push @strings, $1 while $text =~ /\bopen\s*\([^;]*?,\s*"([^"|]*)\|"/g;
	for my $s (@strings) {
		my %c = shell_commands($s);
		$cmds{$_} = 1 for grep { !/^fn:/ } keys %c;
	}
	return %cmds;
}

sub is_perl {
	my ($f) = @_;
	return $f =~ /\.p[lm]$/ || slurp($f) =~ /\A#!.*perl/;
}

# Functions defined in shell libraries the scripts source.
my %lib_funcs;
for my $lib ("$top/t/lib.sh", "$top/harness/guest/lib.sh",
	     "$top/harness/guest/peers-lib.sh", "$top/harness/guest/peers-why.sh",
	     "$top/tools/testing/selftests/migrate_trace_lite/mt_lib.sh") {
	next unless -f $lib;
	my %c = shell_commands(slurp($lib));
	$lib_funcs{$_} = 1 for map { s/^fn://r } grep { /^fn:/ } keys %c;
}
# The KTAP helpers of the kernel tree.
$lib_funcs{$_} = 1 for qw(ktap_print_header ktap_set_plan ktap_skip_all ktap_test_pass
			  ktap_test_fail ktap_test_skip ktap_test_result ktap_print_msg
			  ktap_finished ktap_exit_fail_msg);

my @host = (glob("$top/harness/*.sh"), grep { !/check-deps/ } glob("$top/harness/*.pl"),
	    glob("$top/t/*.t"),
	    "$top/t/lib.sh", "$top/.ci/run", grep { -f } glob("$top/scripts/migrate_*"),
	    glob("$top/scripts/MigrateTrace/*.pm"));
my @guest = (glob("$top/harness/guest/*"),
	     glob("$top/tools/testing/selftests/migrate_trace_lite/*.sh"));
my %guest_progs = map { (basename($_) =~ s/\.c$//r) => 1 }
	glob("$top/tools/testing/selftests/migrate_trace_lite/*.c");
$guest_progs{basename($_)} = 1 for @guest;

my @results;
sub judge {
	my ($file, $where, $ok, %cmds) = @_;
	my @bad;
	for my $c (sort keys %cmds) {
		next if $c =~ /^fn:/ || $cmds{"fn:$c"} || $lib_funcs{$c};
		next if $ok->{$c};
		next if $where eq 'guest' && $guest_progs{$c};
		next if $builtin{$c} || $keyword{$c};
		push @bad, $c;
	}
	my $name = $file =~ s@^\Q$top\E/@@r;
	my $n = scalar(grep { !/^fn:/ } keys %cmds);
	push @results, [!@bad, @bad ?
		"$name ($where): not provided: @bad" .
		($where eq 'host' ? ' (add the package to harness/deps.txt)' : ' (not a busybox applet nor a command of a #guest package)') :
		"$name ($where): its $n commands are provided"];
}

for my $f (@host) {
	my %c = is_perl($f) ? perl_commands(slurp($f)) : shell_commands(slurp($f));
	judge($f, 'host', \%host_ok, %c);
}
# The Makefile's recipes, make's own functions aside.
{
	my ($recipes, $in_rule, $cont) = ('', 0, 0);
	for my $l (split /\n/, slurp("$top/Makefile")) {
		if ($cont) {
			$recipes .= "$l\n" if $cont eq 'recipe';
		} elsif ($l =~ /^\t/) {
			$recipes .= ($l =~ s/^\t[@-]*//r) . "\n" if $in_rule;
			$cont = 'recipe' if $in_rule && $l =~ /\\$/;
		} elsif ($l =~ /^[^\s#=][^=]*?:(?!=)/) {
			$in_rule = 1;
		} elsif ($l !~ /^\s*(#|$)/) {
			$in_rule = 0;
		}
		$cont = 0 unless $l =~ /\\$/;
		$cont ||= 'other' if $l =~ /\\$/;
	}
	$recipes =~ s/\$\((?:MAKE|KMAKE)\)/make/g;
	$recipes =~ s/\$\$/\$/g;
	$recipes =~ s/\$\(\w+\)/\$V/g;
	judge("$top/Makefile", 'host', \%host_ok, shell_commands($recipes));
}
for my $f (@guest) {
	next if $f =~ /\.c$/;
	judge($f, 'guest', \%guest_ok, shell_commands(slurp($f)));
}

print "1.." . scalar(@results) . "\n";
my $n = 0;
for my $r (@results) {
	$n++;
	print(($r->[0] ? "ok" : "not ok") . " $n - $r->[1]\n");
}
