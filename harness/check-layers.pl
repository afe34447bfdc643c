#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# The kernel files import only downward.  Each kernel/migrate_trace_lite_X.c
# has its own header kernel/migrate_trace_lite_X.h; our headers include
# each other without a cycle, which puts each on a layer (0: it includes
# none of ours, else one more than the highest it includes); a file
# includes, and uses the names of, only its own header, what that header
# includes (its closure) and the public include/linux/migrate_trace_lite.h,
# the bottom.  kernel/migrate_trace_lite.c, the hooks and init, is the top:
# its header kernel/migrate_trace_lite.h (the hooks' inline fast path) is
# included by no other header.  Test files (*_test.c, *_test.h) are
# exempt.  All of it is read from the code.
# Prints TAP, then the layers.
use strict;
use warnings;
use Getopt::Long qw(:config no_auto_abbrev);

my $P = $0;
$P =~ s@.*/@@g;

sub help {
	my ($exitcode) = @_;
	print << "EOM";
Usage: $P [OPTION]... TOP
Check that kernel/migrate_trace_lite*.[ch] under TOP, the repository's
root, import only downward: own headers, an acyclic include graph, no
include or use of a name from a higher or sibling layer, no extern or
non-static prototype in a .c file.  Prints TAP and the layers; exits 1
on any failure.

Options:
  -h, --help                 display this help and exit
EOM
	exit($exitcode);
}

my $help = 0;
GetOptions('h|help' => \$help) or help(1);
help(0) if $help;
die "$P: usage: $P TOP (see --help)\n" unless @ARGV == 1;
my $top = shift;
die "$P: $top/kernel: not a directory\n" unless -d "$top/kernel";
my $pub = 'include/linux/migrate_trace_lite.h';
my $main = 'kernel/migrate_trace_lite.c';

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', "$top/$f") or die "$P: $top/$f: $!\n";
	local $/;
	return scalar <$fh>;
}

# TEXT without comments, strings and character constants, its continued
# lines joined.
sub clean {
	my ($t) = @_;
	$t =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'}
	       {$& =~ /^["']/ ? '""' : ' ' . ($& =~ tr/\n//cdr)}gse;
	$t =~ s/\\\n/ /g;
	return $t;
}

my %kw = map { $_ => 1 } qw(auto break case char const continue default do
	double else enum extern float for goto if inline int long register
	restrict return short signed sizeof static struct switch typedef union
	unsigned void volatile while __read_mostly __ro_after_init __initdata
	__initconst __maybe_unused __always_inline __init __exit __cold __user
	__percpu __rcu __must_check noinline notrace __weak __used __packed);

# The declarations of a cleaned TEXT: [name, kind, static], kind one of
# define, const (of an enum), tag, func (with a body), proto, extern, var.
sub scan {
	my ($t) = @_;
	my @d;
	my ($guard) = $t =~ /^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+\1\b/m;
	push @d, map { [$_, 'define', 0] } grep { $_ ne ($guard // '') } $t =~ /^\s*#\s*define\s+(\w+)/mg;
	$t =~ s/^\s*#.*$//mg;
	for my $body ($t =~ /\benum\b[\s\w]*\{([^{}]*)\}/g) {
		push @d, map { [$_, 'const', 0] } $body =~ /(?:^|,)\s*([A-Za-z_]\w*)/g;
	}
	push @d, map { [$_, 'tag', 0] } $t =~ /\b(?:struct|union|enum)\s+(\w+)\s*\{/g;
	1 while $t =~ s/\{[^{}]*\}/\x01/g;		# bodies
	$t =~ s/(\)[\s\w]*\x01)/$1;/g;			# a function's ends it
	$t =~ s/=[^;]*//g;				# initialisers
	$t =~ s/\b__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)//g;
	$t =~ s/\b__(?:printf|scanf|aligned|section|acquires|releases|must_hold)\s*\([^()]*\)//g;
	for my $s (split /;/, $t) {
		my $static = $s =~ /\bstatic\b/ ? 1 : 0;
		if (my ($m, $args) = $s =~ /^\s*(?:static\s+)?((?:DECLARE|DEFINE)_\w+)\s*\(([^()]*)\)/) {
			# (type, name) for a per-CPU one, else (name, ...).
			my @a = map { s/^\s+|\s+$//gr } split /,/, $args;
			my ($n) = $m =~ /_PER_CPU/ ? $a[-1] : grep { /^\w+$/ && !$kw{$_} } @a;
			push @d, [$n, $m =~ /^DECLARE_(?:PER_CPU|STATIC_KEY)/ ? 'extern' : 'var', $static] if $n;
		} elsif (my ($pre, $name) = $s =~ /^(.*?)\b(\w+)\s*\(/s) {
			# No type before the name: a macro's call (late_initcall(f)).
			next unless $pre =~ /\w/ && !$kw{$name};
			push @d, [$name, $s =~ /\x01\s*$/ ? 'func' : 'proto', $static];
		} elsif ($s !~ /^\s*(?:(?:struct|union|enum)\b[\s\w]*(?:\x01)?)?\s*$/) {
			$s =~ s/\[[^\]]*\]//g;
			my @w = grep { !$kw{$_} } $s =~ /\b([A-Za-z_]\w*)\b/g;
			push @d, [$w[-1], $s =~ /^\s*extern\b/ ? 'extern' : 'var', $static] if @w;
		}
	}
	return @d;
}

# The names a cleaned TEXT uses, members (->x, .x) and includes aside.
sub uses {
	my ($t) = @_;
	$t =~ s/^\s*#\s*include\b.*$//mg;
	$t =~ s/(?:->|\.)\s*[A-Za-z_]\w*//g;
	return $t =~ /\b([A-Za-z_]\w*)\b/g;
}

opendir(my $dh, "$top/kernel") or die "$P: $top/kernel: $!\n";
my @files = map { "kernel/$_" } sort grep { /^migrate_trace_lite\w*\.[ch]$/ } readdir($dh);
closedir($dh);
my @cs = grep { /\.c$/ } @files;
my @hs = grep { /\.h$/ } @files;
my %test = map { $_ => 1 } grep { /_test\.[ch]$/ } @files;
my %is_h = map { $_ => 1 } @hs;
my (%text, %inc, %decl, %layer, %busy);
for my $f (@files) {
	my $raw = slurp($f);
	$inc{$f} = [map { "kernel/$_" } $raw =~ /^\s*#\s*include\s*"(migrate_trace_lite\w*\.h)"/mg];
	$text{$f} = clean($raw);
}
for my $h (@hs) {
	$decl{$_->[0]}{$h} = 1 for scan($text{$h});
}
my %public = map { $_->[0] => 1 } scan(clean(slurp($pub)));

# The headers H includes, directly or not.
sub closure {
	my ($h, $seen) = @_;
	$seen //= {};
	for my $i (@{$inc{$h} // []}) {
		closure($i, $seen) unless $seen->{$i}++;
	}
	return $seen;
}

# H's layer; an include that closes a cycle is not counted.
sub layer {
	my ($h) = @_;
	return $layer{$h} if defined $layer{$h};
	return -1 if $busy{$h} || !$is_h{$h};
	$busy{$h} = 1;
	my $l = 0;
	for my $i (@{$inc{$h}}) {
		my $n = layer($i) + 1;
		$l = $n if $n > $l;
	}
	delete $busy{$h};
	return $layer{$h} = $l;
}

# A path of includes from H back to H, if any.
sub cycle {
	my ($h) = @_;
	my (@todo, %seen) = ([$h]);
	while (my $path = shift @todo) {
		for my $i (@{$inc{$path->[-1]} // []}) {
			return (@$path, $i) if $i eq $h;
			push @todo, [@$path, $i] unless $seen{$i}++;
		}
	}
	return;
}

# H's layer as printed: ? for a missing header or one on a cycle.
my %on_cycle = map { $_ => 1 } grep { cycle($_) } @hs;
sub lay { my $l = layer($_[0]); return $l < 0 || $on_cycle{$_[0]} ? '?' : $l }

my @results;
sub result { push @results, [@_] }

# The names FILE uses that are declared in our headers but in none it may
# use (ALLOWED, and the public header): "NAME (HEADER, layer L), ...".
sub foreign {
	my ($f, $allowed) = @_;
	my %by;
	for my $n (uses($text{$f})) {
		next if $public{$n} || !$decl{$n} || grep { $allowed->{$_} } keys %{$decl{$n}};
		my ($h) = sort keys %{$decl{$n}};
		$by{$h}{$n} = 1;
	}
	return join('; ', map { join(', ', sort keys %{$by{$_}}) . " ($_, layer " . lay($_) . ')' } sort keys %by);
}

(my $top_h = $main) =~ s/\.c$/.h/;
for my $h (grep { !$test{$_} } @hs) {
	my @c = cycle($h);
	result(!@c, "$h is on no include cycle" . (@c ? ': ' . join(' -> ', @c) : ''));
	result(!grep({ $_ eq $top_h } @{$inc{$h}}), "$h does not include $top_h, the top's");
	my $bad = foreign($h, { %{closure($h)}, $h => 1 });
	result($bad eq '', "$h (layer " . lay($h) . ") uses only names of its closure" .
	       ($bad ne '' ? ": $bad" : ''));
}
for my $c (@cs) {
	if ($test{$c}) {
		result(1, "$c is a test file, exempt from the layer rules");
		next;
	}
	my @sneaky = map { "$_->[1] $_->[0]" } grep { $_->[1] eq 'extern' || ($_->[1] eq 'proto' && !$_->[2]) }
		scan($text{$c});
	result(!@sneaky, "$c declares no extern and no non-static prototype" .
	       (@sneaky ? ': ' . join(', ', @sneaky) : ''));
	(my $own = $c) =~ s/\.c$/.h/;
	my $has = $is_h{$own} && grep { $_ eq $own } @{$inc{$c}};
	result($has, "$c includes its own header $own");
	my %allowed = (%{closure($own)}, $own => 1);
	my @up = grep { !$allowed{$_} } @{$inc{$c}};
	result(!@up, "$c (layer " . lay($own) . ") includes only its own header and its closure" .
	       (@up ? ': ' . join(', ', map { "$_ (layer " . lay($_) . ')' } @up) .
		' from a higher or sibling layer' : ''));
	my $bad = foreign($c, \%allowed);
	result($bad eq '', "$c (layer " . lay($own) . ") uses only names of its closure" .
	       ($bad ne '' ? ": $bad" : ''));
}

print "1.." . scalar(@results) . "\n";
my ($n, $failed) = (0, 0);
for my $r (@results) {
	$n++;
	$failed++ unless $r->[0];
	print(($r->[0] ? "ok" : "not ok") . " $n - $r->[1]\n");
}
print "# layers:\n#   public $pub\n";
for my $h (sort { layer($a) <=> layer($b) || $a cmp $b } @hs) {
	print "#   " . lay($h) . " $h" . ($test{$h} ? ' (test)' : '') .
	      (@{$inc{$h}} ? ': ' . join(' ', map { s@^kernel/@@r } @{$inc{$h}}) : '') . "\n";
}
print "#   top $main\n";
exit($failed ? 1 : 0);
