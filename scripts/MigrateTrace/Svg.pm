# SPDX-License-Identifier: GPL-2.0
#
# MigrateTrace::Svg - the charts of migrate_report, as inline SVG
#
# Each chart is one <svg> element with a viewBox, drawn here from numbers
# (no script, no font or image to fetch), so that a page that holds it is
# readable offline and in any browser:
#
#   stacked_rates  rates of several series over time, stacked, with a key
#   heatmap        a matrix of counts, from CPU (rows) to CPU (columns)
#   timeline       one lane per task: its CPU over time, each move a dot
#                  (at most one per pixel, CPU and cause in a busy lane)
#   bars           horizontal bars, one per label
#
# Each takes a hash of arguments and returns the element's text.

package MigrateTrace::Svg;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(esc color_of stacked_rates heatmap timeline bars);

# Text for HTML and SVG.
sub esc {
	my ($s) = @_;
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/>/&gt;/g;
	$s =~ s/"/&quot;/g;
	$s =~ s/[\x00-\x08\x0b\x0c\x0e-\x1f]/?/g;
	return $s;
}

# One color per cause number (1, 2, ...), the same in every chart.
my @palette = map { "#$_" } qw(4e79a7 f28e2b 59a14f e15759 76b7b2 edc948 b07aa1 ff9da7
		 9c755f 86bcb6 d37295 8cd17d b6992d 499894 f1ce63 a0cbe8
		 79706e d4a6c8 fabfd2 bab0ac);

sub color_of {
	my ($n) = @_;
	return $palette[($n - 1) % @palette];
}

# About five round steps from 0 to MAX: (step, top).
sub ticks {
	my ($max) = @_;
	return (1, 1) unless $max > 0;
	my $raw = $max / 5;
	my $mag = 10**int(log($raw) / log(10) - ($raw < 1 ? 1 : 0));
	my ($step) = grep { $_ * $mag >= $raw } 1, 2, 2.5, 5, 10;
	$step *= $mag;
	my $top = $step * (int($max / $step - 1e-9) + 1);
	return ($step, $top);
}

sub num {
	my ($v) = @_;
	return $v >= 1000 ? sprintf('%.0f', $v) : $v == int($v) ? $v : sprintf('%.3g', $v);
}

# The element's opening, W x H: it fills its box up to W pixels wide and
# shrinks with it down to three quarters of W (12-pixel text at 9), so
# that a narrower box scrolls it sideways rather than shrink its text.
sub svg_open {
	my ($id, $w, $h, $label) = @_;
	return qq{<svg id="$id" class="chart" viewBox="0 0 $w $h" width="$w" height="$h" } .
		sprintf(qq{style="max-width:%dpx;min-width:%dpx" }, $w, $w * 3 / 4) .
		qq{role="img" aria-label="} . esc($label) . qq{" } .
		qq{font-family="sans-serif" font-size="12">\n} .
		qq{<rect width="$w" height="$h" fill="#fff"/>\n};
}

# Axes of a plot at X0, Y0 (its top left) of W x H: a y scale 0 .. YTOP by
# YSTEP, an x scale 0 .. XMAX (seconds), labels.
sub axes {
	my (%a) = @_;
	my ($x0, $y0, $w, $h) = @a{qw(x0 y0 w h)};
	my $s = '';
	for (my $v = 0; $v <= $a{ytop} + 1e-9; $v += $a{ystep}) {
		my $y = $y0 + $h - $h * $v / $a{ytop};
		$s .= sprintf(qq{<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e3e3e3"/>\n}, $x0, $x0 + $w, $y, $y);
		$s .= sprintf(qq{<text x="%d" y="%.1f" text-anchor="end" fill="#444">%s</text>\n},
			      $x0 - 6, $y + 4, num($v));
	}
	my ($xstep) = ticks($a{xmax});
	for (my $v = 0; $v <= $a{xmax} + 1e-9; $v += $xstep) {
		my $x = $x0 + $w * $v / ($a{xmax} || 1);
		$s .= sprintf(qq{<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/>\n}, $x, $x, $y0 + $h, $y0 + $h + 4);
		$s .= sprintf(qq{<text x="%.1f" y="%d" text-anchor="middle" fill="#444">%s</text>\n},
			      $x, $y0 + $h + 17, num($v));
	}
	$s .= qq{<line x1="$x0" x2="$x0" y1="$y0" y2="} . ($y0 + $h) . qq{" stroke="#999"/>\n};
	$s .= qq{<line x1="$x0" x2="} . ($x0 + $w) . qq{" y1="} . ($y0 + $h) . qq{" y2="} . ($y0 + $h) .
		qq{" stroke="#999"/>\n};
	$s .= sprintf(qq{<text x="%d" y="%d" text-anchor="middle" fill="#444">%s</text>\n},
		      $x0 + $w / 2, $y0 + $h + 34, esc($a{xlabel}));
	$s .= sprintf(qq{<text transform="translate(14,%d) rotate(-90)" text-anchor="middle" fill="#444">%s</text>\n},
		      $y0 + $h / 2, esc($a{ylabel}));
	return $s;
}

# SERIES ([name, color, [rate of each period]]), PERIOD seconds each,
# PERIODS of them (the time axis spans them all, even with no series),
# stacked in their order, the first at the bottom; at most about 600
# points across (periods averaged in buckets beyond that).  A key at the
# right names each series with its TOTALS entry (a label).
sub stacked_rates {
	my (%a) = @_;
	my ($id, $series, $period) = @a{qw(id series period)};
	my ($w, $h, $x0, $y0, $pw, $ph) = (1200, 330, 64, 14, 860, 262);
	my $n = $a{periods} // (@$series ? scalar(@{$series->[0][2]}) : 0);
	my $per = $n > 600 ? int(($n + 599) / 600) : 1;
	my $nb = $n ? int(($n + $per - 1) / $per) : 0;
	my (@cum, $max);
	$max = 0;
	my @base = (0) x $nb;
	for my $s (@$series) {
		my @v = map {
			my $b = $_;
			my ($sum, $k) = (0, 0);
			for my $i ($b * $per .. $b * $per + $per - 1) {
				last if $i >= $n;
				$sum += $s->[2][$i];
				$k++;
			}
			$base[$b] + $sum / $k;
		} 0 .. $nb - 1;
		push @cum, [[@base], \@v];
		@base = @v;
	}
	$max = $_ > $max ? $_ : $max for @base;
	my ($ystep, $ytop) = ticks($max);
	my $span = $n * $period || 1;
	my $svg = svg_open($id, $w, $h, $a{label} // 'stacked rates');
	$svg .= axes(x0 => $x0, y0 => $y0, w => $pw, h => $ph, ytop => $ytop, ystep => $ystep,
		     xmax => $span, xlabel => $a{xlabel} // 'seconds', ylabel => $a{ylabel} // 'per second');
	my $x = sub { $x0 + $pw * ($_[0] + 0.5) * $per * $period / $span };
	my $y = sub { $y0 + $ph - $ph * $_[0] / $ytop };
	$svg .= nothing($x0 + $pw / 2, $y0 + $ph / 2) unless grep { $_ > 0 } @base;
	for my $i (0 .. $#$series) {
		my ($lo, $hi) = @{$cum[$i]};
		next unless grep { $hi->[$_] > $lo->[$_] } 0 .. $nb - 1;
		my @pts = map { sprintf('%.1f,%.1f', $x->($_), $y->($hi->[$_])) } 0 .. $nb - 1;
		push @pts, map { sprintf('%.1f,%.1f', $x->($_), $y->($lo->[$_])) } reverse 0 .. $nb - 1;
		# One period alone: a bar of its width.
		@pts = map { sprintf('%.1f,%.1f', @$_) } ([$x0, $y->($hi->[0])], [$x0 + $pw, $y->($hi->[0])],
							   [$x0 + $pw, $y->($lo->[0])], [$x0, $y->($lo->[0])])
			if $nb == 1;
		$svg .= sprintf(qq{<polygon class="area" points="%s" fill="%s" stroke="%s" stroke-width="0.6">} .
				qq{<title>%s</title></polygon>\n}, join(' ', @pts), $series->[$i][1],
				$series->[$i][1], esc($series->[$i][0]));
	}
	# The key, the top series first as in the stack.
	my $ky = $y0 + 4;
	for my $s (reverse @$series) {
		$svg .= sprintf(qq{<rect x="%d" y="%d" width="12" height="12" fill="%s"/>\n}, $x0 + $pw + 24, $ky, $s->[1]);
		$svg .= sprintf(qq{<text x="%d" y="%d" fill="#222">%s</text>\n}, $x0 + $pw + 42, $ky + 10,
				esc($s->[0] . (defined $a{totals} ? "  $a{totals}{$s->[0]}" : '')));
		$ky += 18;
	}
	return $svg . "</svg>\n";
}

# A from/to matrix: MATRIX->{"FROM TO"} counts over CPUS (a list).
sub heatmap {
	my (%a) = @_;
	my ($id, $m, $cpus) = @a{qw(id matrix cpus)};
	my $nc = @$cpus || 1;
	my $cell = $nc <= 8 ? 44 : $nc <= 16 ? 28 : int(560 / $nc) || 1;
	my ($x0, $y0) = (78, 44);
	my ($w, $h) = ($x0 + $nc * $cell + 110, $y0 + $nc * $cell + 20);
	my $max = 0;
	$max = $_ > $max ? $_ : $max for values %$m;
	my $svg = svg_open($id, $w, $h, $a{label} // 'from/to CPU heatmap');
	$svg .= sprintf(qq{<text x="%d" y="14" text-anchor="middle" fill="#444">to CPU</text>\n}, $x0 + $nc * $cell / 2);
	$svg .= sprintf(qq{<text transform="translate(14,%d) rotate(-90)" text-anchor="middle" fill="#444">from CPU</text>\n},
			$y0 + $nc * $cell / 2);
	my $step = $nc <= 16 ? 1 : int($nc / 8);
	for my $i (0 .. $#$cpus) {
		next if $i % $step;
		$svg .= sprintf(qq{<text x="%.1f" y="%d" text-anchor="middle" fill="#444">%d</text>\n},
				$x0 + ($i + 0.5) * $cell, $y0 - 6, $cpus->[$i]);
		$svg .= sprintf(qq{<text x="%d" y="%.1f" text-anchor="end" fill="#444">%d</text>\n},
				$x0 - 6, $y0 + ($i + 0.7) * $cell, $cpus->[$i]);
	}
	for my $i (0 .. $#$cpus) {
		for my $j (0 .. $#$cpus) {
			my $v = $m->{"$cpus->[$i] $cpus->[$j]"} // 0;
			my $f = $max ? $v / $max : 0;
			my $color = $i == $j ? '#f4f4f4' : heat($f);
			$svg .= sprintf(qq{<rect class="cell" x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#fff">} .
					qq{<title>CPU %d to CPU %d: %d</title></rect>\n}, $x0 + $j * $cell, $y0 + $i * $cell,
					$cell, $cell, $color, $cpus->[$i], $cpus->[$j], $v);
			$svg .= sprintf(qq{<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" fill="%s">%d</text>\n},
					$x0 + ($j + 0.5) * $cell, $y0 + ($i + 0.5) * $cell + 4,
					$f > 0.55 ? '#fff' : '#333', $v) if $cell >= 28 && $i != $j;
		}
	}
	# The scale, when there is something to scale.
	return $svg . "</svg>\n" unless $max;
	my $sx = $x0 + $nc * $cell + 30;
	for my $k (0 .. 9) {
		$svg .= sprintf(qq{<rect x="%d" y="%.1f" width="16" height="%.1f" fill="%s"/>\n}, $sx,
				$y0 + (9 - $k) * $nc * $cell / 10, $nc * $cell / 10 + 0.5, heat(($k + 0.5) / 10));
	}
	$svg .= sprintf(qq{<text x="%d" y="%d" fill="#444">%d</text>\n}, $sx + 22, $y0 + 10, $max);
	$svg .= sprintf(qq{<text x="%d" y="%d" fill="#444">0</text>\n}, $sx + 22, $y0 + $nc * $cell);
	return $svg . "</svg>\n";
}

# White to dark red for 0 to 1; any count above 0 is visibly colored.
sub heat {
	my ($f) = @_;
	return '#ffffff' if $f <= 0;
	my @stops = ([0, 254, 237, 222], [0.35, 253, 174, 107], [0.7, 230, 85, 13], [1, 127, 39, 4]);
	for my $i (1 .. $#stops) {
		my ($a, $b) = @stops[$i - 1, $i];
		next if $f > $b->[0];
		my $t = ($f - $a->[0]) / ($b->[0] - $a->[0]);
		return sprintf('#%02x%02x%02x', map { $a->[$_] + ($b->[$_] - $a->[$_]) * $t } 1 .. 3);
	}
	return '#7f2704';
}

# "No migration", centered at X, Y: a chart with nothing to draw says so.
sub nothing {
	my ($x, $y) = @_;
	return sprintf(qq{<text class="nothing" x="%d" y="%d" text-anchor="middle" font-size="16" fill="#8a6d00">} .
		       qq{No migration</text>\n}, $x, $y);
}

sub MAX_MOVES () { 5000 }

# LANES ([label, [[t, cpu], ...] the CPU it moved to at t, first entry
# at t 0 the CPU before its first move, [[t, cpu, color], ...] the moves]),
# NCPUS, END seconds; KEY: [name, color] of the causes drawn.  The time
# axis has round ticks and one at END; each lane has its CPUs' ticks at
# the right (every CPU up to 8, else 0, the middle and the last).
sub timeline {
	my (%a) = @_;
	my ($id, $lanes, $ncpus, $end) = @a{qw(id lanes ncpus end)};
	my ($lh, $x0, $y0, $pw) = (46, 230, 10, 800);
	my $nl = @$lanes || 1;
	my ($w, $h) = (1200, $y0 + $nl * $lh + 44);
	$end ||= 1;
	my $svg = svg_open($id, $w, $h, $a{label} // 'per-task timeline');
	my $x = sub { $x0 + $pw * $_[0] / $end };
	for my $l (0 .. $#$lanes) {
		my ($label, $steps, $moves) = @{$lanes->[$l]};
		my $top = $y0 + $l * $lh;
		my $y = sub { $top + $lh - 6 - ($lh - 12) * ($ncpus > 1 ? $_[0] / ($ncpus - 1) : 0.5) };
		$svg .= sprintf(qq{<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>\n}, $x0, $top, $pw, $lh,
				$l % 2 ? '#f6f1e7' : '#e9eff7');
		$svg .= sprintf(qq{<text x="%d" y="%d" text-anchor="end" fill="#222">%s</text>\n},
				$x0 - 8, $top + $lh / 2 + 4, esc($label));
		for my $c ($ncpus <= 8 ? 0 .. $ncpus - 1 : (0, int(($ncpus - 1) / 2), $ncpus - 1)) {
			$svg .= sprintf(qq{<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#999"/>} .
					qq{<text class="cpu" x="%d" y="%.1f" font-size="11" fill="#666">%d</text>\n},
					$x0 + $pw, $x0 + $pw + 3, $y->($c), $y->($c), $x0 + $pw + 5, $y->($c) + 4, $c);
		}
		# A lane of more moves than MAX_MOVES draws what a pixel shows:
		# one dot per pixel, CPU and cause, a point of the line once.
		my $dense = @$moves > MAX_MOVES;
		my (@pts, %seen);
		my $pt = sub {
			my $p = sprintf($dense ? '%.0f,%.1f' : '%.1f,%.1f', @_);
			push @pts, $p unless $dense && @pts && $pts[-1] eq $p;
		};
		for my $i (0 .. $#$steps) {
			my ($t, $c) = @{$steps->[$i]};
			$pt->($x->($t), $y->($steps->[$i - 1][1])) if $i;
			$pt->($x->($t), $y->($c));
		}
		$pt->($x->($end), $y->($steps->[-1][1])) if @$steps;
		$svg .= qq{<polyline points="@pts" fill="none" stroke="#555" stroke-width="1"/>\n} if @pts;
		for my $m (@$moves) {
			my $dot = sprintf(qq{<circle class="move" cx="%.1f" cy="%.1f" r="3" fill="%s"/>\n},
					  $x->($m->[0]), $y->($m->[1]), $m->[2]);
			next if $dense && $seen{int($x->($m->[0])) . " $m->[1] $m->[2]"}++;
			$svg .= $dot;
		}
	}
	my $ay = $y0 + $nl * $lh;
	$svg .= nothing($x0 + $pw / 2, $y0 + $lh / 2 + 6) unless @$lanes;
	my ($xstep) = ticks($end);
	my @v;
	for (my $v = 0; $v <= $end + 1e-9; $v += $xstep) {
		push @v, $v;
	}
	# The end has a tick of its own; a round one too close to it goes.
	pop @v if @v && $x->($end) - $x->($v[-1]) < 40;
	for my $v (@v, $end) {
		$svg .= sprintf(qq{<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/>\n} .
				qq{<text x="%.1f" y="%d" text-anchor="middle" fill="#444">%s</text>\n},
				$x->($v), $x->($v), $ay, $ay + 4, $x->($v), $ay + 17,
				$v == $end && $v != int($v) ? sprintf('%.2f', $v) : num($v));
	}
	$svg .= sprintf(qq{<text x="%d" y="%d" text-anchor="middle" fill="#444">seconds (in a lane: CPU 0 at the bottom, CPU %d at the top)</text>\n},
			$x0 + $pw / 2, $ay + 34, $ncpus - 1);
	my $ky = $y0 + 4;
	for my $k (@{$a{key} // []}) {
		$svg .= sprintf(qq{<circle cx="%d" cy="%d" r="5" fill="%s"/><text x="%d" y="%d" fill="#222">%s</text>\n},
				$x0 + $pw + 24, $ky + 6, $k->[1], $x0 + $pw + 36, $ky + 10, esc($k->[0]));
		$ky += 18;
	}
	return $svg . "</svg>\n";
}

# BARS ([label, value, color]), horizontal, with their values.
sub bars {
	my (%a) = @_;
	my ($id, $bars) = @a{qw(id bars)};
	my ($bh, $x0, $pw) = (26, 90, 230);
	my $h = 10 + @$bars * $bh + 6;
	my $max = 0;
	$max = $_->[1] > $max ? $_->[1] : $max for @$bars;
	my $svg = svg_open($id, $x0 + $pw + 290, $h, $a{label} // 'bars');
	for my $i (0 .. $#$bars) {
		my ($l, $v, $c) = @{$bars->[$i]};
		my $y = 10 + $i * $bh;
		my $bw = $max ? $pw * $v / $max : 0;
		$svg .= sprintf(qq{<text x="%d" y="%d" text-anchor="end" fill="#222">%s</text>\n}, $x0 - 8, $y + 15, esc($l));
		$svg .= sprintf(qq{<rect class="bar" x="%d" y="%d" width="%.1f" height="18" fill="%s"/>\n}, $x0, $y + 2, $bw, $c)
			if $v;
		$svg .= sprintf(qq{<text x="%.1f" y="%d" fill="#222">%s</text>\n}, $x0 + $bw + 6, $y + 15, esc($a{text}[$i] // $v));
	}
	return $svg . "</svg>\n";
}

1;
