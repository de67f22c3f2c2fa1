import java.io.File;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtilities;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.general.DefaultPieDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a pie, a bar and an XY line chart with JFreeChart and writes them
 * as PNG files into the directory given (headless).
 *
 *   java -Djava.awt.headless=true -cp jfreechart.jar:jcommon.jar:driver Charts OUTDIR
 */
public class Charts {
    public static void main(String[] args) throws Exception {
        File dir = new File(args.length > 0 ? args[0] : ".");

        DefaultPieDataset pie = new DefaultPieDataset();
        pie.setValue("front end", 25);
        pie.setValue("engine", 45);
        pie.setValue("analyses", 30);
        JFreeChart p = ChartFactory.createPieChart("Time", pie, true, true, false);
        ChartUtilities.saveChartAsPNG(new File(dir, "pie.png"), p, 400, 300);

        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        String[] programs = {"freetts", "xalan", "ant"};
        for (int i = 0; i < programs.length; i++) {
            bars.addValue(10 + 7 * i, "recall", programs[i]);
            bars.addValue(30 - 4 * i, "edges", programs[i]);
        }
        JFreeChart b = ChartFactory.createBarChart("Recall", "program", "value", bars,
                PlotOrientation.VERTICAL, true, true, false);
        ChartUtilities.saveChartAsPNG(new File(dir, "bar.png"), b, 400, 300);

        XYSeries s = new XYSeries("nodes");
        for (int x = 0; x < 20; x++) s.add(x, x * x - 3 * x + 5);
        JFreeChart l = ChartFactory.createXYLineChart("BDD size", "iteration", "nodes",
                new XYSeriesCollection(s), PlotOrientation.VERTICAL, true, false, false);
        ChartUtilities.saveChartAsPNG(new File(dir, "line.png"), l, 400, 300);
        System.out.println("wrote pie.png, bar.png and line.png");
    }
}
