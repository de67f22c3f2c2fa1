<?xml version="1.0"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" indent="yes"/>
  <xsl:key name="by-year" match="book" use="year"/>
  <xsl:template match="/">
    <html><body>
      <h1>Books (<xsl:value-of select="count(//book)"/>)</h1>
      <table>
        <xsl:for-each select="catalog/book">
          <xsl:sort select="year" data-type="number"/>
          <tr><td><xsl:value-of select="translate(title, 'abc', 'ABC')"/></td>
              <td><xsl:value-of select="format-number(price, '#,##0.00')"/></td>
              <td><xsl:value-of select="concat(substring(year, 1, 2), '-', string-length(title))"/></td>
              <td><xsl:if test="key('by-year', year)"><xsl:number/></xsl:if></td></tr>
        </xsl:for-each>
      </table>
      <p>Total: <xsl:value-of select="sum(//price)"/></p>
    </body></html>
  </xsl:template>
</xsl:stylesheet>
